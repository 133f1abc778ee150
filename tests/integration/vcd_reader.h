// A VCD waveform as the tests read it: its signals by full dotted name, and each one's changes
// (time in the file's timescale, value) in order.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_support.h"

namespace ssd::cli {

struct Vcd {
  std::map<std::string, std::string> code_of;  // name -> identifier code
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> changes_by_code;

  // The signal's changes (time, value), in order; none for a name not traced.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> changes(const std::string& name) const {
    auto c = code_of.find(name);
    if (c == code_of.end()) return {};
    auto v = changes_by_code.find(c->second);
    return v == changes_by_code.end() ? std::vector<std::pair<std::uint64_t, std::uint64_t>>{} : v->second;
  }
  // Every value the signal took.
  std::set<std::uint64_t> values(const std::string& name) const {
    std::set<std::uint64_t> out;
    for (const auto& [t, v] : changes(name)) out.insert(v);
    return out;
  }
};

inline Vcd read_vcd(const std::string& path) {
  Vcd vcd;
  std::istringstream in(read_text(path));
  std::vector<std::string> scope;
  std::string line;
  std::uint64_t now = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "$scope") {
      std::string kind, name;
      words >> kind >> name;
      scope.push_back(name);
    } else if (first == "$upscope") {
      scope.pop_back();
    } else if (first == "$var") {
      std::string kind, width, code, name;
      words >> kind >> width >> code >> name;
      std::string full;
      for (const auto& s : scope) full += s + ".";
      vcd.code_of[full + name] = code;
    } else if (!first.empty() && first[0] == '#') {
      now = std::stoull(first.substr(1));
    } else if (!first.empty() && first[0] == 'b') {
      std::string code;
      words >> code;
      vcd.changes_by_code[code].emplace_back(now, std::stoull(first.substr(1), nullptr, 2));
    } else if (!first.empty() && (first[0] == '0' || first[0] == '1') && first.size() > 1) {
      vcd.changes_by_code[first.substr(1)].emplace_back(now, std::uint64_t(first[0] - '0'));
    }
  }
  return vcd;
}

}  // namespace ssd::cli
