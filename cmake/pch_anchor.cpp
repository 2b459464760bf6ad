// The translation unit that carries the test programs' precompiled headers
// (cmake/nsh_module.cmake, nsh_precompile_headers).
