// Recording and writing the warp timeline. The JSON is streamed event by event
// rather than built as one nlohmann::json tree, which for millions of events
// would need gigabytes; nlohmann::json only escapes each distinct name once.
#include "trace/chrome_trace.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

namespace warptlm {
namespace {

// Shortest fixed-point text that reads back as the same double (0.001, not
// 0.0010000000000000002; 1000000, not 1e+06: some trace importers do not take
// exponents in timestamps).
void put_number(std::string& buf, double v) {
  char tmp[400];  // fixed notation of any finite double fits
  const auto res = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::fixed);
  buf.append(tmp, res.ptr);
}

void put_number(std::string& buf, uint64_t v) {
  char tmp[24];
  const auto res = std::to_chars(tmp, tmp + sizeof tmp, v);
  buf.append(tmp, res.ptr);
}

std::string escaped(const std::string& s) {
  // Invalid UTF-8 (e.g. a stray byte in a PTX comment) becomes U+FFFD instead of throwing.
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

ChromeTrace::ChromeTrace(uint64_t max_events) : max_events_(max_events) {}

uint32_t ChromeTrace::intern(const std::string& name) {
  const auto it = name_ids_.find(name);
  if (it != name_ids_.end()) return it->second;
  const uint32_t id = uint32_t(names_.size());
  names_.push_back(name);
  name_ids_.emplace(name, id);
  return id;
}

void ChromeTrace::slice(unsigned sm, unsigned warp, const std::string& name, uint64_t begin,
                        uint64_t duration) {
  if (duration > std::numeric_limits<uint32_t>::max()) {
    throw std::invalid_argument("duration: a slice must last under 2^32 cycles");
  }
  if (events_.size() >= max_events_) {
    ++dropped_;
    return;
  }
  events_.push_back(Event{begin, uint32_t(duration), intern(name), sm, warp, 0});
}

void ChromeTrace::slice(unsigned sm, unsigned warp, const std::string& name, uint64_t begin,
                        uint64_t duration, uint64_t mask) {
  const uint64_t before = events_.size();
  slice(sm, warp, name, begin, duration);
  if (events_.size() == before) return;  // dropped
  events_.back().name |= kHasMask;
  events_.back().mask = mask;
}

void ChromeTrace::write(std::ostream& os, double cycle_ns) const {
  if (!(cycle_ns > 0) || !std::isfinite(cycle_ns)) {
    throw std::invalid_argument("cycle_ns: must be a positive finite number of ns per cycle");
  }
  // Product first, then one division: whole cycles at whole ns come out as the
  // double nearest the decimal microseconds (3 cycles at 1 ns -> 0.003).
  auto micros = [cycle_ns](uint64_t cycles) { return double(cycles) * cycle_ns / 1000.0; };
  std::vector<std::string> names;
  names.reserve(names_.size());
  for (const std::string& n : names_) names.push_back(escaped(n));

  std::string buf;
  bool first = true;
  auto begin_event = [&] {
    buf.append(first ? "\n" : ",\n");
    first = false;
  };
  auto flush = [&] {
    os.write(buf.data(), std::streamsize(buf.size()));
    buf.clear();
  };

  buf.append("{\"traceEvents\":[");
  for (const Event& e : events_) {
    begin_event();
    buf.append("{\"name\":").append(names[e.name & ~kHasMask]).append(",\"ph\":\"X\",\"ts\":");
    put_number(buf, micros(e.begin));
    buf.append(",\"dur\":");
    put_number(buf, micros(e.duration));
    buf.append(",\"pid\":");
    put_number(buf, uint64_t(e.sm));
    buf.append(",\"tid\":");
    put_number(buf, uint64_t(e.warp));
    if (e.name & kHasMask) {
      char mask[96];
      std::snprintf(mask, sizeof mask, ",\"args\":{\"mask\":\"0x%llx\",\"lanes\":",
                    static_cast<unsigned long long>(e.mask));
      buf.append(mask);
      put_number(buf, uint64_t(__builtin_popcountll(e.mask)));
      buf.append("}");
    }
    buf.append("}");
    if (buf.size() > (1 << 16)) flush();
  }

  // Metadata for each SM and each (SM, warp) track that has a slice, in numeric order.
  std::vector<std::pair<uint32_t, uint32_t>> tracks;
  tracks.reserve(events_.size());
  for (const Event& e : events_) tracks.emplace_back(e.sm, e.warp);
  std::sort(tracks.begin(), tracks.end());
  tracks.erase(std::unique(tracks.begin(), tracks.end()), tracks.end());
  // Opens {"name":kind,"ph":"M","pid":sm[,"tid":warp],"args":{ ; the caller closes it.
  auto open_meta = [&](const char* kind, uint64_t sm, const uint64_t* warp) {
    begin_event();
    buf.append("{\"name\":\"").append(kind).append("\",\"ph\":\"M\",\"pid\":");
    put_number(buf, sm);
    if (warp != nullptr) {
      buf.append(",\"tid\":");
      put_number(buf, *warp);
    }
    buf.append(",\"args\":{");
  };
  for (size_t i = 0; i < tracks.size(); ++i) {
    const uint64_t sm = tracks[i].first, warp = tracks[i].second;
    if (i == 0 || tracks[i - 1].first != sm) {
      open_meta("process_name", sm, nullptr);
      buf.append("\"name\":\"SM ");
      put_number(buf, sm);
      buf.append("\"}}");
      open_meta("process_sort_index", sm, nullptr);
      buf.append("\"sort_index\":");
      put_number(buf, sm);
      buf.append("}}");
    }
    open_meta("thread_name", sm, &warp);
    buf.append("\"name\":\"warp ");
    put_number(buf, warp);
    buf.append("\"}}");
    open_meta("thread_sort_index", sm, &warp);
    buf.append("\"sort_index\":");
    put_number(buf, warp);
    buf.append("}}");
    if (buf.size() > (1 << 16)) flush();
  }

  buf.append("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"dropped_events\":");
  put_number(buf, dropped_);
  buf.append(",\"cycle_ns\":");
  put_number(buf, cycle_ns);
  buf.append("}}\n");
  flush();
}

}  // namespace warptlm
