// Runs the glimpse binary from tests and captures its output and exit code.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace glimpse::test {

struct CommandResult {
  int code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `build/glimpse <args>` through the shell, from the source directory. Args starting with
// "__timeout_kill__ SECONDS " run it under `timeout -s KILL SECONDS` (exit code 137 when killed).
inline CommandResult RunGlimpse(std::string args) {
  std::string prefix;
  const std::string kill_tag = "__timeout_kill__ ";
  const std::string fsize_tag = "__prlimit_fsize__ ";  // "__prlimit_fsize__ BYTES ": ulimit -f
  if (args.rfind(kill_tag, 0) == 0) {
    args = args.substr(kill_tag.size());
    prefix = "timeout -s KILL " + args.substr(0, args.find(' ')) + " ";
    args = args.substr(args.find(' ') + 1);
  } else if (args.rfind(fsize_tag, 0) == 0) {
    args = args.substr(fsize_tag.size());
    prefix = "prlimit --fsize=" + args.substr(0, args.find(' ')) + " ";
    args = args.substr(args.find(' ') + 1);
  }
  const std::string cmd =
      std::string("cd '") + GLIMPSE_SOURCE_DIR + "' && " + prefix + "'" + GLIMPSE_BINARY + "' " + args + " 2>&1";
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

// A scratch folder private to this test process ($TMPDIR/glimpse_tests_<pid>), removed at exit, so
// concurrent test runs (ctest -j, or two checkouts) never share files.
inline std::string TempDir() {
  struct Dir {
    std::string path;
    Dir() {
      const char* t = std::getenv("TMPDIR");
      path = std::string(t ? t : "/tmp") + "/glimpse_tests_" + std::to_string(::getpid());
      std::filesystem::create_directories(path);
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

// The last line of a command's output (the line its contract fixes), without the trailing newline.
inline std::string LastLine(const std::string& s) {
  std::string t = s;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') + 1);
}

// Options of a tiny run (2 glimpses, a 16-unit core) on the fake digits in `data`: trains an epoch in
// well under a second, evaluates, and logs 2 trajectories.
inline std::string TinyRun(const std::string& data) {
  return " --data-dir " + data +
         " --glimpses 2 --patch 6 --hidden 16 --glimpse-hidden 8 --batch 8 --val-images 16"
         " --trajectories 2 --threads 1 ";
}

// The run files git tracks under results/, relative to the source directory (full run files of sweeps
// in progress are git-ignored and may be being written); empty without git (an exported tree).
inline std::vector<std::string> CommittedRunFiles() {
  std::vector<std::string> runs;
  const std::string list = "git -C '" + std::string(GLIMPSE_SOURCE_DIR) + "' ls-files 'results/*.h5' 2>/dev/null";
  if (FILE* p = popen(list.c_str(), "r")) {
    char line[4096];
    while (std::fgets(line, sizeof line, p)) {
      std::string rel(line);
      while (!rel.empty() && (rel.back() == '\n' || rel.back() == '\r')) rel.pop_back();
      if (!rel.empty()) runs.push_back(rel);
    }
    pclose(p);
  }
  return runs;
}

}  // namespace glimpse::test
