#include "tlm/vcd_tracer.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>
#include <systemc>

#include "tlm/time_base.h"

namespace ssd::tlmx {

namespace {
std::string code_for(std::size_t n) {  // VCD identifier: base-94 over printable characters
  std::string s;
  do {
    s += static_cast<char>('!' + n % 94);
    n /= 94;
  } while (n);
  return s;
}
}  // namespace

VcdTracer::VcdTracer(const std::string& path, std::uint64_t window_start_ticks, std::uint64_t window_end_ticks,
                     std::vector<std::string> groups)
    : path_(path), buffer_(1 << 20), start_(window_start_ticks), end_(window_end_ticks), groups_(std::move(groups)) {
  out_.rdbuf()->pubsetbuf(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  out_.open(path);
  if (!out_) throw std::runtime_error("cannot write waveform file '" + path + "'");
}

VcdTracer::~VcdTracer() { close(); }

std::vector<VcdTracer::SignalInfo> VcdTracer::kept_signals() const {
  std::vector<SignalInfo> kept;
  for (const Signal& s : signals_)
    if (s.kept) kept.push_back({s.scope, s.name, s.width});
  return kept;
}

int VcdTracer::add(const std::string& scope, const std::string& name, unsigned width, std::uint64_t initial) {
  if (header_written_) throw std::logic_error("VCD signal '" + name + "' added after tracing started");
  const std::size_t dot = scope.find('.');
  const std::string below_top = dot == std::string::npos ? std::string() : scope.substr(dot + 1);
  bool kept = groups_.empty();
  for (const auto& g : groups_) kept = kept || below_top.compare(0, g.size(), g) == 0;
  signals_.push_back({scope, name, code_for(signals_.size()), width, initial, kept});
  return static_cast<int>(signals_.size() - 1);
}

void VcdTracer::write_header() {
  out_ << "$date simulation $end\n$version ssd-vp $end\n$timescale " << kTickPicoseconds << "ps $end\n";
  // Signals grouped by scope (sorted), nested scopes opened and closed by common prefix.
  auto split = [](const std::string& scope) {
    std::vector<std::string> parts;
    std::size_t pos = 0, dot;
    while ((dot = scope.find('.', pos)) != std::string::npos) {
      parts.push_back(scope.substr(pos, dot - pos));
      pos = dot + 1;
    }
    parts.push_back(scope.substr(pos));
    return parts;
  };
  std::map<std::vector<std::string>, std::vector<const Signal*>> by_scope;
  for (const auto& s : signals_)
    if (s.kept) by_scope[split(s.scope)].push_back(&s);
  std::vector<std::string> open;
  for (const auto& [parts, sigs] : by_scope) {
    std::size_t common = 0;
    while (common < open.size() && common < parts.size() && open[common] == parts[common]) ++common;
    for (std::size_t i = open.size(); i > common; --i) out_ << "$upscope $end\n";
    open.resize(common);
    for (std::size_t i = common; i < parts.size(); ++i) {
      out_ << "$scope module " << parts[i] << " $end\n";
      open.push_back(parts[i]);
    }
    for (const Signal* s : sigs) out_ << "$var wire " << s->width << ' ' << s->code << ' ' << s->name << " $end\n";
  }
  for (std::size_t i = 0; i < open.size(); ++i) out_ << "$upscope $end\n";
  out_ << "$enddefinitions $end\n";
  header_written_ = true;
}

void VcdTracer::write_value(std::ostream& out, const Signal& s) {
  if (s.width == 1) {
    out << (s.value ? '1' : '0') << s.code << '\n';
    return;
  }
  char bits[65];
  int n = 0;
  for (int b = static_cast<int>(s.width) - 1; b >= 0; --b) bits[n++] = ((s.value >> b) & 1) ? '1' : '0';
  bits[n] = 0;
  const char* p = bits;
  while (*p == '0' && p[1]) ++p;  // VCD allows dropping leading zeros
  out << 'b' << p << ' ' << s.code << '\n';
}

void VcdTracer::advance_to(std::uint64_t t) {
  if (!header_written_) write_header();
  if (!window_open_) {
    if (t < start_) return;
    // The window opens at its start: nothing changed between it and t, so the values dumped hold
    // from there (and values merged in later at the start follow the dump).
    window_open_ = true;
    out_ << '#' << start_ << "\n$dumpvars\n";
    for (const auto& s : signals_)
      if (s.kept) write_value(out_, s);
    out_ << "$end\n";
    if (t != start_) out_ << '#' << t << '\n';
    last_time_ = t;
    return;
  }
  if (t != last_time_) {
    out_ << '#' << t << '\n';
    last_time_ = t;
  }
}

void VcdTracer::apply(int id, std::uint64_t value, std::uint64_t t) {
  Signal& s = signals_[static_cast<std::size_t>(id)];
  if (s.value == value || !s.kept) return;
  // Nothing is written before the header: a change at time 0 before it (a model setting its
  // state while it is built, before every signal is declared) is the signal's initial value.
  if (!header_written_ && t == 0) {
    s.value = value;
    return;
  }
  if (end_ && t > end_) {
    s.value = value;
    return;
  }
  advance_to(t);  // may open the window, dumping the old values first
  s.value = value;
  if (window_open_) write_value(out_, s);
}

void VcdTracer::flush_until(std::uint64_t t) {
  while (!pending_.empty() && pending_.top().time <= t) {
    const Pending p = pending_.top();
    pending_.pop();
    apply(p.id, p.value, p.time);
  }
}

void VcdTracer::change_at(int id, std::uint64_t value, std::uint64_t t, std::uint64_t now) {
  if (closed_) return;
  if (t < now) throw std::logic_error("VCD change in the past for signal '" + signals_[std::size_t(id)].name + "'");
  if (t > now || !pending_.empty()) {  // keep time order with changes held for later
    pending_.push(Pending{t, seq_++, id, value});
    flush_until(now);
    return;
  }
  apply(id, value, t);
}


void VcdTracer::change_at(int id, std::uint64_t value, std::uint64_t t) { change_at(id, value, t, now_ticks()); }

void VcdTracer::change(int id, std::uint64_t value) {
  const std::uint64_t now = now_ticks();
  change_at(id, value, now, now);
}

void VcdTracer::change_late(int id, std::uint64_t value, std::uint64_t t) {
  if (closed_ || !signals_[std::size_t(id)].kept || t < start_ || (end_ && t > end_)) return;
  late_.push_back(Pending{t, seq_++, id, value});
}

// The file is already in time order; each late change goes into the time step of its own time,
// or, when the file has none, into a step of its own in front of the next one.
void VcdTracer::merge_late_changes() {
  std::stable_sort(late_.begin(), late_.end(), [](const Pending& a, const Pending& b) { return a.time < b.time; });
  const std::string merged = path_ + ".merging";
  std::ifstream in(path_);
  std::ofstream out(merged);
  if (!in || !out) throw std::runtime_error("cannot rewrite waveform file '" + path_ + "' with its utilization signals");
  std::vector<std::uint64_t> last(signals_.size(), ~std::uint64_t(0));  // the last late value written
  std::size_t next = 0;
  std::ostringstream values;
  auto late_at = [&](std::uint64_t t) {  // the late changes at exactly t that change a value
    values.str("");
    for (; next < late_.size() && late_[next].time == t; ++next) {
      const Pending& p = late_[next];
      if (last[std::size_t(p.id)] == p.value) continue;
      last[std::size_t(p.id)] = p.value;
      Signal& s = signals_[std::size_t(p.id)];
      s.value = p.value;
      write_value(values, s);
    }
    return values.str();
  };
  auto write_late_at = [&](std::uint64_t t) { out << late_at(t); };
  auto steps_before = [&](std::uint64_t t) {  // late changes before t, each time its own step
    while (next < late_.size() && late_[next].time < t) {
      const std::uint64_t step = late_[next].time;
      const std::string changes = late_at(step);
      if (!changes.empty()) out << '#' << step << '\n' << changes;
    }
  };
  bool in_definitions = true, dumping = false;
  std::uint64_t now = 0;
  std::string line;
  while (std::getline(in, line)) {
    const bool step = !in_definitions && !dumping && !line.empty() && line[0] == '#';
    if (step) {
      now = std::stoull(line.substr(1));
      steps_before(now);
    }
    out << line << '\n';
    if (in_definitions) {
      in_definitions = line != "$enddefinitions $end";
    } else if (line == "$dumpvars") {
      dumping = true;
    } else if (dumping && line == "$end") {
      dumping = false;
      write_late_at(now);  // after the dump of the initial values
    } else if (step && in.peek() != '$') {
      write_late_at(now);
    }
  }
  steps_before(~std::uint64_t(0));
  out.close();
  in.close();
  if (!out || std::rename(merged.c_str(), path_.c_str()) != 0)
    throw std::runtime_error("cannot rewrite waveform file '" + path_ + "' with its utilization signals");
}

void VcdTracer::close() {
  if (closed_) return;
  flush_until(~std::uint64_t(0));
  if (!header_written_) write_header();
  if (!window_open_) {  // nothing in the window: still a valid file with the final values
    out_ << "#" << start_ << "\n$dumpvars\n";
    for (const auto& s : signals_)
      if (s.kept) write_value(out_, s);
    out_ << "$end\n";
  }
  out_.flush();
  out_.close();
  closed_ = true;
  if (!late_.empty()) merge_late_changes();
}

}  // namespace ssd::tlmx
