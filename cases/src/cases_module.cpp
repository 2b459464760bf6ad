// placeholder translation unit until the module has sources
