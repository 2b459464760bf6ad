// Loading users' scheme plugins (plugins.hpp).
#include "plugins.hpp"

#include <nsh/error.hpp>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace nsh::cli {
namespace {

void load(const std::string& path, const std::string& field) {
  if (path.empty()) throw InputError(field, "an empty plugin path");
  // RTLD_GLOBAL: the plugin's schemes are called through nsh's own registry and vtables, which
  // the executable exports (-rdynamic); the plugin must not carry a second copy of nsh.
  if (!dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
    const char* why = dlerror();
    throw InputError(field, "cannot load the plugin '" + path +
                                "': " + (why ? std::string(why) : std::string("unknown error")) +
                                " (build it with nsh_add_plugin from nsh's cmake/nsh_stamp.cmake)");
  }
}

}  // namespace

std::vector<std::string> load_plugins(int& argc, char** argv) {
  std::vector<std::string> loaded;
  if (const char* env = std::getenv("NSH_PLUGINS"); env && *env) {
    std::string list = env;
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t colon = list.find(':', start);
      const std::string path = list.substr(start, colon - start);
      if (!path.empty()) {
        load(path, "NSH_PLUGINS");
        loaded.push_back(path);
      }
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    std::string path;
    if (std::strcmp(arg, "--plugin") == 0) {
      if (i + 1 >= argc) throw InputError("--plugin", "needs a path to a shared library");
      path = argv[++i];
    } else if (std::strncmp(arg, "--plugin=", 9) == 0) {
      path = arg + 9;
    } else {
      argv[out++] = argv[i];
      continue;
    }
    load(path, "--plugin");
    loaded.push_back(path);
  }
  argc = out;
  argv[argc] = nullptr;
  return loaded;
}

}  // namespace nsh::cli
