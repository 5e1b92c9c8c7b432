#include "src/core/machine.h"

#include <fstream>
#include <sstream>

namespace glimpse {

std::string CpuModelFrom(const std::string& cpuinfo) {
  std::istringstream in(cpuinfo);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto first = line.find_first_not_of(" \t", colon + 1);
    if (first == std::string::npos) continue;
    const auto last = line.find_last_not_of(" \t\r");
    return line.substr(first, last - first + 1);
  }
  return "unknown";
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  if (!in) return "unknown";
  std::ostringstream text;
  text << in.rdbuf();
  return CpuModelFrom(text.str());
}

double ResidentMb() {
  std::ifstream f("/proc/self/status");
  std::string key;
  double kb = 0;
  while (f >> key) {
    if (key == "VmRSS:") {
      f >> kb;
      break;
    }
    f.ignore(1 << 20, '\n');
  }
  return kb / 1024.0;
}

}  // namespace glimpse
