#include "platforms/config/job_file.h"

#include "common/checked_value.h"

#include <filesystem>
#include <optional>
#include <fstream>
#include <iterator>
#include <set>

#include <yaml-cpp/yaml.h>

#include "platforms/config/platform_config.h"
#include "platforms/config/yaml_keys.h"

namespace ssd::platform {

namespace {

class JobReader {
 public:
  JobReader(const std::string& file, const YAML::Node& node, std::size_t index)
      : file_(file), node_(node), prefix_("jobs[" + std::to_string(index) + "]") {}

  [[noreturn]] void fail(const std::string& key, const std::string& expected) const {
    const YAML::Node at = node_[key] ? node_[key] : node_;
    throw ConfigError(file_ + ":" + std::to_string(at.Mark().line + 1) + ": " + prefix_ + "." + key + ": expected " +
                      expected);
  }
  std::string text(const std::string& key, const std::string& fallback, const std::string& expected) {
    const auto n = value(key);
    if (!n) return fallback;
    if (!n->IsScalar()) fail(key, expected);
    return n->Scalar();
  }
  // Whole numbers and quantities are parsed as every configuration value is (common/checked_value.h):
  // "-1" or "2.5" for a count is refused, not wrapped or cut.
  std::uint64_t count(const std::string& key, std::uint64_t fallback, double hi, const std::string& what) {
    const auto n = value(key);
    if (!n) return fallback;
    std::string expected;
    const auto v = n->IsScalar() ? checked_count(n->Scalar(), ValueRange{0, hi}, expected) : std::nullopt;
    if (!v) fail(key, what + ": " + (n->IsScalar() ? expected : "a single value"));
    return static_cast<std::uint64_t>(*v);
  }
  double quantity(const std::string& key, double fallback, const ValueRange& range, const std::string& what) {
    const auto n = value(key);
    if (!n) return fallback;
    std::string expected;
    const auto v = n->IsScalar() ? checked_quantity(n->Scalar(), range, expected) : std::nullopt;
    if (!v) fail(key, what + ": " + (n->IsScalar() ? expected : "a single value"));
    return *v;
  }
  void mark_read(const std::string& key) { seen_.insert(key); }
  void reject_unknown() const {
    for (const auto& kv : node_) {
      const std::string key = key_text(kv.first, file_);
      if (!seen_.count(key))
        throw ConfigError(file_ + ":" + std::to_string(kv.first.Mark().line + 1) + ": " + prefix_ + ": unknown key '" +
                          key + "'");
    }
  }
  const YAML::Node& node() const { return node_; }

 private:
  // The value at `key`, or nullopt when absent or empty (const lookup: a non-const
  // operator[] would create the key).
  std::optional<YAML::Node> value(const std::string& key) {
    seen_.insert(key);
    const YAML::Node& map = node_;
    const YAML::Node n = map[key];
    if (!n || n.IsNull()) return std::nullopt;
    return n;
  }
  std::string file_;
  YAML::Node node_;
  std::string prefix_;
  std::set<std::string> seen_;
};

std::vector<double> numbers_after(const std::string& text, std::size_t count) {
  std::vector<double> out;
  std::size_t pos = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t colon = text.find(':', pos);
    if (colon == std::string::npos) return {};
    const std::size_t end = text.find(':', colon + 1);
    double v;
    if (!parse_number(text.substr(colon + 1, end == std::string::npos ? std::string::npos : end - colon - 1), v)) return {};
    out.push_back(v);
    pos = colon + 1;
  }
  return out;
}

}  // namespace

std::vector<stimuli::JobSpec> load_job_file(const std::string& path) {
  std::error_code ec;
  std::ifstream in;
  if (std::filesystem::is_regular_file(path, ec)) in.open(path, std::ios::binary);
  if (!in.is_open()) throw ConfigError("cannot read job file '" + path + "'");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw ConfigError("cannot read job file '" + path + "'");
  return load_job_text(text, path);
}

std::vector<stimuli::JobSpec> load_job_text(const std::string& text, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  if (!root.IsMap() || !root["jobs"] || !root["jobs"].IsSequence() || root["jobs"].size() == 0)
    throw ConfigError(path + ": expected a map with a non-empty list 'jobs'");
  for (const auto& kv : root)
    if (const std::string key = key_text(kv.first, path); key != "jobs")
      throw ConfigError(path + ":" + std::to_string(kv.first.Mark().line + 1) + ": unknown key '" + key +
                        "' (only 'jobs')");
  std::vector<stimuli::JobSpec> jobs;
  for (std::size_t i = 0; i < root["jobs"].size(); ++i) {
    const YAML::Node node = root["jobs"][i];
    if (!node.IsMap())
      throw ConfigError(path + ":" + std::to_string(node.Mark().line + 1) + ": jobs[" + std::to_string(i) +
                        "]: expected a map of job settings");
    JobReader r(path, node, i);
    stimuli::JobSpec s;
    s.name = r.text("name", "job" + std::to_string(i + 1), "a name");
    const std::string pattern = r.text("pattern", "random", "random or sequential");
    if (pattern != "random" && pattern != "sequential") r.fail("pattern", "random or sequential");
    s.pattern = pattern == "random" ? stimuli::JobSpec::Pattern::Random : stimuli::JobSpec::Pattern::Sequential;
    s.read_fraction = r.quantity("read_fraction", 0.0, {0, 1}, "the share of reads");
    if (node["block_size"] && node["block_size"].IsSequence()) {
      r.mark_read("block_size");
      s.sizes.clear();
      for (const auto& pair : node["block_size"]) {
        if (!pair.IsSequence() || pair.size() != 2) r.fail("block_size", "a size in bytes or a list of [bytes, weight]");
        std::string expected;
        const auto bytes = pair[0].IsScalar() ? checked_count(pair[0].Scalar(), {0, 4294967295.0}, expected) : std::nullopt;
        const auto weight = pair[1].IsScalar() ? checked_quantity(pair[1].Scalar(), {0, 1e12}, expected) : std::nullopt;
        if (!bytes || !weight) r.fail("block_size", "a size in bytes or a list of [bytes, weight]");
        // value_or, not *: GCC 12 cannot see that fail() does not return (-Wmaybe-uninitialized)
        s.sizes.emplace_back(std::uint32_t(bytes.value_or(0)), weight.value_or(0.0));
      }
    } else {
      s.sizes = {{std::uint32_t(r.count("block_size", 4096, 4294967295.0, "a size in bytes or a list of [bytes, weight]")), 1.0}};
    }
    s.count = r.count("count", 1000, 1e15, "a number of requests");
    s.range_start_bytes = r.count("range_start", 0, 1e18, "bytes");
    s.range_bytes = r.count("range_bytes", 0, 1e18, "bytes (0: to the end of the drive)");
    s.align_bytes = std::uint32_t(r.count("align", 0, 4294967295.0, "bytes (0: the smallest block size)"));
    s.rate_iops = r.quantity("rate_iops", 0.0, {0, 1e12}, "requests per second (0: closed loop)");
    const std::string arrivals = r.text("arrivals", "uniform", "uniform or poisson");
    if (arrivals != "uniform" && arrivals != "poisson") r.fail("arrivals", "uniform or poisson");
    s.poisson = arrivals == "poisson";
    s.weight = std::uint32_t(r.count("weight", 1, 4294967295.0, "a positive integer"));
    s.iodepth = std::uint32_t(r.count("iodepth", 0, 65536, "a queue depth (0: the jobs share the host's)"));
    const std::string skew = r.text("skew", "uniform", "uniform, zipf:THETA or hotcold:SHARE:ACCESS");
    if (skew == "uniform") {
      s.skew = stimuli::JobSpec::Skew::Uniform;
    } else if (skew.rfind("zipf:", 0) == 0) {
      const auto v = numbers_after(skew, 1);
      if (v.size() != 1) r.fail("skew", "zipf:THETA with THETA a number, e.g. zipf:0.99");
      s.skew = stimuli::JobSpec::Skew::Zipf;
      s.zipf_theta = v[0];
    } else if (skew.rfind("hotcold:", 0) == 0) {
      const auto v = numbers_after(skew, 2);
      if (v.size() != 2) r.fail("skew", "hotcold:SHARE:ACCESS, e.g. hotcold:0.2:0.8");
      s.skew = stimuli::JobSpec::Skew::HotCold;
      s.hot_share = v[0];
      s.hot_access = v[1];
    } else {
      r.fail("skew", "uniform, zipf:THETA or hotcold:SHARE:ACCESS");
    }
    s.seed = r.count("seed", i + 1, 9007199254740992.0, "an unsigned integer (up to 2^53)");
    s.flush_every = r.count("flush_every", 0, 1e15, "a number of writes between flushes (0: none)");
    s.flush_interval_s = r.quantity("flush_interval", 0.0, {0, 1e9}, "seconds of trace time between flushes (0: none)");
    s.fua_share = r.quantity("fua_share", 0.0, {0, 1}, "the share of writes with Force Unit Access");
    s.trim_share = r.quantity("trim_share", 0.0, {0, 1}, "the share of requests that deallocate their range");
    if (node["queue"] && !node["queue"].IsNull())
      s.queue = std::uint32_t(r.count("queue", 0, 65535, "an I/O queue number from 0"));
    const std::string priority = r.text("priority", "", "urgent, high, medium or low");
    if (!priority.empty()) {
      s.priority = parse_queue_priority(priority);
      if (!s.priority) r.fail("priority", "urgent, high, medium or low");
    }
    r.reject_unknown();
    jobs.push_back(s);
  }
  return jobs;
}

}  // namespace ssd::platform
