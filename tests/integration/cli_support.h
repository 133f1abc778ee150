// Helpers for end-to-end tests of the ssdsim executable: run it as a subprocess (fork/exec, no
// shell), capture stdout, stderr and the exit status, give every test a fresh temporary
// directory for reports and input files, load JSON reports, and compare reports with a golden
// file while ignoring the fields that legitimately differ between runs and machines.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ssd::cli {

namespace fs = std::filesystem;
using nlohmann::json;

inline std::string ssdsim_path() { return SSDSIM_PATH; }
inline std::string source_dir() { return SSD_SOURCE_DIR; }
inline std::string source_path(const std::string& relative) { return source_dir() + "/" + relative; }
inline std::string tiny_platform() { return source_path("platforms/tiny.yaml"); }
inline std::string default_platform() { return source_path("platforms/default.yaml"); }

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + p.string() + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write '" + p.string() + "'");
}

// A fresh directory under the system temp directory, removed with everything in it at the end
// of the test (set SSD_KEEP_TEMP=1 to keep it for inspection).
class TempDir {
 public:
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "ssdsim-cli-XXXXXX").string();
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed for '" + templ + "'");
    path_ = fs::path(buf.data());
  }
  ~TempDir() {
    if (std::getenv("SSD_KEEP_TEMP")) return;
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const fs::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `text` to a file in this directory and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    write_text(path_ / name, text);
    return file(name);
  }

 private:
  fs::path path_;
};

struct Result {
  std::string command;    // for messages
  int exit_code = -1;     // valid when exited normally
  bool signaled = false;  // killed by a signal (a crash: SIGSEGV, SIGABRT...)
  int signal = 0;
  bool timed_out = false;
  std::string out, err;

  bool exited() const { return !signaled && !timed_out; }
  std::string output() const { return out + err; }
  // Everything a failing assertion should show.
  std::string describe() const {
    std::ostringstream s;
    s << "command: " << command << "\n";
    if (timed_out) s << "TIMED OUT (killed)\n";
    if (signaled) s << "KILLED BY SIGNAL " << signal << " (" << ::strsignal(signal) << ")\n";
    if (!signaled && !timed_out) s << "exit code: " << exit_code << "\n";
    s << "--- stdout ---\n" << out << "--- stderr ---\n" << err;
    return s.str();
  }
};

// Runs ssdsim with `args` (no shell; arguments are passed as they are) in working directory
// `cwd`, stdout and stderr captured separately. A run that takes longer than `timeout_s` is
// killed (with its process group) and reported as timed_out.
inline Result run_ssdsim(const std::vector<std::string>& args, const fs::path& cwd, double timeout_s = 120) {
  Result r;
  r.command = ssdsim_path();
  for (const auto& a : args) r.command += " '" + a + "'";
  const std::string out_file = (cwd / ".ssdsim_stdout").string(), err_file = (cwd / ".ssdsim_stderr").string();

  std::vector<std::string> argv_s;
  argv_s.push_back(ssdsim_path());
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::setpgid(0, 0);
    if (::chdir(cwd.c_str()) != 0) ::_exit(126);
    const int o = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = ::open("/dev/null", O_RDONLY);
    if (o < 0 || e < 0 || in < 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(o, 1);
    ::dup2(e, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) throw std::runtime_error("waitpid failed");
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!r.timed_out) {
    if (WIFEXITED(status)) {
      r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      r.signaled = true;
      r.signal = WTERMSIG(status);
    }
  }
  std::error_code ec;
  if (fs::exists(out_file, ec)) r.out = read_text(out_file);
  if (fs::exists(err_file, ec)) r.err = read_text(err_file);
  fs::remove(out_file, ec);
  fs::remove(err_file, ec);
  return r;
}

inline Result run_ssdsim(const std::vector<std::string>& args, const TempDir& dir, double timeout_s = 120) {
  return run_ssdsim(args, dir.path(), timeout_s);
}

inline json load_json(const fs::path& p) { return json::parse(read_text(p)); }
inline std::uint64_t u64(const json& j) { return j.get<std::uint64_t>(); }
// A bundled trace of tests/data/traces.
inline std::string fixture(const std::string& name) { return source_path("tests/data/traces/" + name); }

// The FTLs `ssdsim ftls` lists.
inline std::vector<std::string> ftl_names(const TempDir& dir) {
  const Result r = run_ssdsim({"ftls"}, dir);
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> names;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line[0] != ' ') names.push_back(line.substr(0, line.find(' ')));
  return names;
}

// SubGroup's superblocks under word-line safety need more room on tiny than the others' 20%: one
// whose logical pages are all valid also holds word-line padding and never fits back into its N
// blocks, and at 0.2 the pool runs out or not depending on where the flushes fall (test
// "word-line safety: a superblock reclaims only what gains more than its padding..."). 0.25 for it.
inline std::vector<std::string> with_word_line_pool(std::vector<std::string> args, const std::string& ftl) {
  if (ftl == "subgroup") args.insert(args.end(), {"--set", "ftl.overprovisioning=0.25"});
  return args;
}

// A `run` that writes its report (and no waveform) into `dir`; returns the process result and,
// if the report exists, the report.
struct RunReport {
  Result result;
  json report;
  bool has_report = false;
};

inline RunReport run_report(std::vector<std::string> args, const TempDir& dir,
                            const std::string& report_name = "report.json", double timeout_s = 120) {
  const std::string report = dir.file(report_name);
  std::vector<std::string> full{"run"};
  full.insert(full.end(), args.begin(), args.end());
  full.insert(full.end(), {"--no-vcd", "-q", "-r", report});
  RunReport rr;
  rr.result = run_ssdsim(full, dir, timeout_s);
  std::error_code ec;
  if (fs::exists(report, ec)) {
    rr.report = load_json(report);
    rr.has_report = true;
  }
  return rr;
}

// The flash pages an FTL's counters account for (ftl_metrics): host pages, GC relocations of data,
// translation pages (written back or relocated; demand-based FTLs), merge copies and padding
// (hybrids), pages read reclaim or a bad block's emptying moved, failed programs' pages written
// again. Every page programmed is one of them (closed form).
inline std::uint64_t accounted_programs(const json& f) {
  auto count = [&f](const char* k) { return f.contains(k) ? f[k].get<std::uint64_t>() : std::uint64_t(0); };
  return count("host_pages_written") + count("gc_copies") - count("gc_copies_translation") +
         count("translation_writes_host") + count("translation_writes_gc") + count("merge_copies") +
         count("padding_pages") + count("read_reclaim_writes") + count("bad_block_writes") +
         count("failed_page_rewrites");
}

// ---- platform facts from a report -------------------------------------------------------------

// A run that must succeed: exits 0 and writes its report (failures name the command's output).
inline json successful_run(std::vector<std::string> args, const TempDir& dir,
                           const std::string& report_name = "report.json") {
  RunReport rr = run_report(std::move(args), dir, report_name);
  INFO(rr.result.describe());
  REQUIRE(rr.result.exited());
  REQUIRE(rr.result.exit_code == 0);
  REQUIRE(rr.has_report);
  return rr.report;
}

// The effective value of a platform parameter as a number (a list gives its smallest element).
inline double effective_number(const json& report, const std::string& key) {
  const json& v = report.at("platform").at("effective").at(key);
  if (v.is_array()) {
    double lo = INFINITY;
    for (const auto& e : v) lo = std::min(lo, e.get<double>());
    return lo;
  }
  return v.get<double>();
}

struct Geometry {
  std::uint64_t channels, ways, dies_per_way, planes_per_die, blocks_per_plane, pages_per_block, page_bytes;
  double overprovisioning;
  std::uint64_t dies() const { return channels * ways * dies_per_way; }
  std::uint64_t planes() const { return dies() * planes_per_die; }
  std::uint64_t total_pages() const { return planes() * blocks_per_plane * pages_per_block; }
  // page_mapping: floor(total pages x (1 - overprovisioning)) pages visible to the host.
  std::uint64_t logical_pages() const {
    return static_cast<std::uint64_t>(std::floor(double(total_pages()) * (1.0 - overprovisioning)));
  }
  std::uint64_t capacity_bytes() const { return logical_pages() * page_bytes; }
};

inline Geometry geometry_of(const json& report) {
  auto n = [&](const char* k) { return static_cast<std::uint64_t>(effective_number(report, k)); };
  Geometry g{n("geometry.channels"),         n("geometry.ways"),
             n("geometry.dies_per_way"),     n("geometry.planes_per_die"),
             n("geometry.blocks_per_plane"), n("geometry.pages_per_block"),
             n("geometry.page_bytes"),       0.0};
  g.overprovisioning = report.at("ftl").at("parameters").at("overprovisioning").get<double>();
  return g;
}

// ---- report comparison ------------------------------------------------------------------------

// Fields that legitimately differ between runs and machines, as JSON pointers.
inline const std::vector<std::string>& volatile_report_fields() {
  static const std::vector<std::string> fields = {
      "/simulation/wall_seconds",
      "/simulation/precondition_wall_seconds",
      "/simulation/setup_wall_seconds",
      "/simulation/verify_wall_seconds",
      "/simulation/process_wall_seconds",
      "/simulation/process_cpu_seconds",
      "/simulation/requests_per_wall_second",
      "/simulation/peak_rss_mib",
      "/simulation/vcd",
      "/platform/file",
  };
  return fields;
}

inline void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
}

// Removes the volatile fields and makes absolute paths machine independent: the source tree and
// the temp directory become "<source>" and "<tmp>".
inline json filter_report(json r, const std::string& tmp_dir = "") {
  for (const auto& f : volatile_report_fields()) {
    const json::json_pointer p(f);
    if (r.contains(p)) r.at(p.parent_pointer()).erase(p.back());
  }
  std::vector<std::pair<std::string, std::string>> paths;
  if (!tmp_dir.empty()) paths.push_back({tmp_dir, "<tmp>"});
  paths.push_back({source_dir(), "<source>"});
  std::function<void(json&)> walk = [&](json& j) {
    if (j.is_string()) {
      std::string s = j.get<std::string>();
      for (const auto& [from, to] : paths) replace_all(s, from, to);
      j = s;
    } else if (j.is_structured()) {
      for (auto& e : j) walk(e);
    }
  };
  walk(r);
  return r;
}

inline std::string pointer_escape(const std::string& key) {
  std::string s = key;
  replace_all(s, "~", "~0");
  replace_all(s, "/", "~1");
  return s;
}

// Differences between two reports, as "pointer: expected X, got Y", in document order.
// Integers, strings, booleans and the structure must be equal; floating-point numbers may differ
// by `rel_tol` (relative) to absorb last-bit differences between compilers and math libraries.
inline void json_differences(const json& expected, const json& actual, const std::string& path, double rel_tol,
                             std::vector<std::string>& out, std::size_t limit = 20) {
  if (out.size() >= limit) return;
  auto report = [&](const std::string& what) { out.push_back((path.empty() ? "/" : path) + ": " + what); };
  if (expected.is_number() && actual.is_number()) {
    const bool both_int = !expected.is_number_float() && !actual.is_number_float();
    if (both_int) {
      if (expected != actual) report("expected " + expected.dump() + ", got " + actual.dump());
      return;
    }
    const double a = expected.get<double>(), b = actual.get<double>();
    if (!(a == b || std::fabs(a - b) <= rel_tol * std::max(std::fabs(a), std::fabs(b))))
      report("expected " + expected.dump() + ", got " + actual.dump());
    return;
  }
  if (expected.type() != actual.type()) {
    report("expected " + expected.dump() + ", got " + actual.dump());
    return;
  }
  if (expected.is_object()) {
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      const std::string p = path + "/" + pointer_escape(it.key());
      if (!actual.contains(it.key()))
        out.push_back(p + ": expected " + it.value().dump() + ", got nothing (field missing)");
      else
        json_differences(it.value(), actual.at(it.key()), p, rel_tol, out, limit);
      if (out.size() >= limit) return;
    }
    for (auto it = actual.begin(); it != actual.end(); ++it) {
      if (!expected.contains(it.key()))
        out.push_back(path + "/" + pointer_escape(it.key()) + ": expected nothing, got " + it.value().dump() +
                      " (field not in the expected report)");
      if (out.size() >= limit) return;
    }
    return;
  }
  if (expected.is_array()) {
    if (expected.size() != actual.size())
      report("expected an array of " + std::to_string(expected.size()) + " elements, got " +
             std::to_string(actual.size()));
    for (std::size_t i = 0; i < std::min(expected.size(), actual.size()); ++i) {
      json_differences(expected[i], actual[i], path + "/" + std::to_string(i), rel_tol, out, limit);
      if (out.size() >= limit) return;
    }
    return;
  }
  if (expected != actual) report("expected " + expected.dump() + ", got " + actual.dump());
}

inline std::vector<std::string> json_differences(const json& expected, const json& actual, double rel_tol = 0.0) {
  std::vector<std::string> out;
  json_differences(expected, actual, "", rel_tol, out);
  return out;
}

// ---- small text helpers -----------------------------------------------------------------------

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Asserts that `r` is a clean bad-input exit whose output contains every one of `needles`.
inline void require_bad_input(const Result& r, const std::vector<std::string>& needles) {
  INFO(r.describe());
  REQUIRE(r.exited());
  CHECK(r.exit_code == 2);
  for (const auto& n : needles) {
    INFO("expected the message to contain: " << n);
    CHECK(contains(r.output(), n));
  }
}

// Lines of `text`.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::stringstream s(text);
  std::string line;
  while (std::getline(s, line)) v.push_back(line);
  return v;
}

// The dotted keys of a simple two-level YAML file like platforms/*.yaml ("section:" at column 0,
// "  key: value" below it, '#' comments). Enough for the repository's own platform files.
inline std::vector<std::string> simple_yaml_keys(const std::string& text) {
  std::vector<std::string> keys;
  std::string section;
  for (std::string line : lines_of(text)) {
    const std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line.empty()) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const bool indented = line[0] == ' ';
    std::string key = line.substr(0, colon);
    key.erase(0, key.find_first_not_of(' '));
    const bool has_value = colon + 1 < line.size();
    if (!indented) {
      if (has_value) {
        keys.push_back(key);
        section.clear();
      } else {
        section = key;
      }
    } else if (!section.empty()) {
      keys.push_back(section + "." + key);
    }
  }
  return keys;
}

}  // namespace ssd::cli
