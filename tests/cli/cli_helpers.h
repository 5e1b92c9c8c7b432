// Runs the glimpse binary from tests and captures its output and exit code.
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace glimpse::test {

struct CommandResult {
  int code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `build/glimpse <args>` through the shell, from the source directory.
inline CommandResult RunGlimpse(const std::string& args) {
  const std::string cmd =
      std::string("cd '") + GLIMPSE_SOURCE_DIR + "' && '" + GLIMPSE_BINARY + "' " + args + " 2>&1";
  CommandResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string TempDir() {
  const char* t = std::getenv("TMPDIR");
  return t ? t : "/tmp";
}

}  // namespace glimpse::test
