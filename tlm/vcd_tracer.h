// Value-change dump of TLM-level state: models report a change when it happens (die state,
// channel owner, queue depth, core busy, host outstanding), so tracing costs nothing between
// changes and nothing at all when disabled. A model that already knows when a state will end
// may report that change ahead (change_at a future time) instead of waking up for it; such
// changes are held and written in time order. Only changes inside the time window are written;
// at the window's start the current value of every signal is dumped.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <queue>
#include <string>
#include <vector>

namespace ssd::tlmx {

class VcdTracer {
 public:
  // Times are kernel ticks (tlm/time_base.h), as is the file's timescale. Window:  end = 0 means "until the end". groups: keep only signals whose scope,
  // below the top level, starts with one of these ("host" keeps ssd.host and
  // ssd.host_interface, "channel1" one channel, "channel" all); empty keeps everything.
  VcdTracer(const std::string& path, std::uint64_t window_start_ticks = 0, std::uint64_t window_end_ticks = 0,
            std::vector<std::string> groups = {});
  ~VcdTracer();

  // Declares a signal under a dotted scope ("ssd.channel0"); all before the first change after
  // time 0 (changes at time 0 before that set initial values).
  int add(const std::string& scope, const std::string& name, unsigned width, std::uint64_t initial = 0);
  // Records a change at the current simulation time.
  void change(int id, std::uint64_t value);
  // Records a change at `time_ticks`, which must not be before the current simulation time.
  void change_at(int id, std::uint64_t value, std::uint64_t time_ticks);
  // Same, for callers that keep their own clock (tests, tools): `now_ticks` is the present.
  void change_at(int id, std::uint64_t value, std::uint64_t time_ticks, std::uint64_t now_ticks);
  // A value known only after the fact (a busy share over an interval that has passed): held and
  // merged into the file in time order when it is closed. Window and groups apply as to changes.
  void change_late(int id, std::uint64_t value, std::uint64_t time_ticks);
  void close();
  const std::string& path() const { return path_; }

  // The signals written to the file (those the groups keep), in the order they were added.
  struct SignalInfo {
    std::string scope, name;
    unsigned width;
  };
  std::vector<SignalInfo> kept_signals() const;

 private:
  struct Signal {
    std::string scope, name, code;
    unsigned width;
    std::uint64_t value;
    bool kept = true;  // false: outside the selected groups, never written
  };
  struct Pending {
    std::uint64_t time, seq;
    int id;
    std::uint64_t value;
    bool operator>(const Pending& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  void apply(int id, std::uint64_t value, std::uint64_t t);
  void flush_until(std::uint64_t t);  // writes held changes at or before t
  void write_header();
  void write_value(std::ostream& out, const Signal& s);
  void advance_to(std::uint64_t t);
  void merge_late_changes();  // rewrites the closed file with late_ in time order

  std::string path_;
  std::ofstream out_;
  std::vector<char> buffer_;
  std::uint64_t start_, end_;
  std::vector<Signal> signals_;
  bool header_written_ = false, window_open_ = false, closed_ = false;
  std::uint64_t last_time_ = ~std::uint64_t(0);
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending_;
  std::uint64_t seq_ = 0;
  std::vector<std::string> groups_;
  std::vector<Pending> late_;
};

}  // namespace ssd::tlmx
