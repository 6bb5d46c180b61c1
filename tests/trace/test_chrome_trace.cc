// ChromeTrace: the written JSON parses back with slices, track metadata,
// microsecond times, escaped names and a count of dropped slices.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace/chrome_trace.h"

namespace warptlm {
namespace {

using nlohmann::json;

json written(const ChromeTrace& t, double cycle_ns) {
  std::ostringstream os;
  t.write(os, cycle_ns);
  return json::parse(os.str());
}

std::vector<json> of_phase(const json& doc, const std::string& ph) {
  std::vector<json> out;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") == ph) out.push_back(e);
  }
  return out;
}

TEST(ChromeTrace, SlicesBecomeCompleteEventsInMicroseconds) {
  ChromeTrace t;
  t.slice(0, 3, "add.s32 %r1, %r2, %r3", 10, 1);
  t.slice(1, 40, "stall: scoreboard", 12, 5);
  t.slice(0, 3, "ld.global.u32 %r4, [%rd1]", 11, 2);
  EXPECT_EQ(t.events(), 3u);
  EXPECT_EQ(t.dropped(), 0u);
  json doc = written(t, 1.0);  // 1 ns per cycle: 1 cycle = 0.001 us
  EXPECT_EQ(doc.at("displayTimeUnit"), "ns");
  EXPECT_EQ(doc.at("otherData").at("dropped_events"), 0);
  std::vector<json> x = of_phase(doc, "X");
  ASSERT_EQ(x.size(), 3u);  // in recording order
  EXPECT_EQ(x[0].at("name"), "add.s32 %r1, %r2, %r3");
  EXPECT_EQ(x[0].at("pid"), 0);
  EXPECT_EQ(x[0].at("tid"), 3);
  EXPECT_DOUBLE_EQ(x[0].at("ts").get<double>(), 0.010);  // cycle 10
  EXPECT_DOUBLE_EQ(x[0].at("dur").get<double>(), 0.001);
  EXPECT_EQ(x[1].at("name"), "stall: scoreboard");
  EXPECT_EQ(x[1].at("pid"), 1);
  EXPECT_EQ(x[1].at("tid"), 40);
  EXPECT_DOUBLE_EQ(x[1].at("ts").get<double>(), 0.012);
  EXPECT_DOUBLE_EQ(x[1].at("dur").get<double>(), 0.005);
  EXPECT_EQ(x[2].at("name"), "ld.global.u32 %r4, [%rd1]");
  EXPECT_DOUBLE_EQ(x[2].at("ts").get<double>(), 0.011);
  EXPECT_DOUBLE_EQ(x[2].at("dur").get<double>(), 0.002);
  EXPECT_FALSE(x[0].contains("args"));  // no mask given
}

TEST(ChromeTrace, InstructionSlicesCarryTheirActiveMask) {
  ChromeTrace t;
  t.slice(0, 1, "add.s32 %r1, %r2, %r3", 4, 1, 0xf0f0ull);
  t.slice(0, 1, "add.s32 %r1, %r2, %r3", 5, 1, ~0ull);  // the same name, another mask
  t.slice(0, 1, "stall: barrier", 6, 3);
  std::vector<json> x = of_phase(written(t, 1.0), "X");
  ASSERT_EQ(x.size(), 3u);
  EXPECT_EQ(x[0].at("name"), "add.s32 %r1, %r2, %r3");
  EXPECT_EQ(x[0].at("args").at("mask"), "0xf0f0");
  EXPECT_EQ(x[0].at("args").at("lanes"), 8);
  EXPECT_EQ(x[1].at("name"), "add.s32 %r1, %r2, %r3");
  EXPECT_EQ(x[1].at("args").at("mask"), "0xffffffffffffffff");
  EXPECT_EQ(x[1].at("args").at("lanes"), 64);
  EXPECT_FALSE(x[2].contains("args"));
}

TEST(ChromeTrace, CycleTimeScalesTimestamps) {
  ChromeTrace t;
  t.slice(2, 0, "bra L1", 3, 4);
  t.slice(2, 0, "exit", 1'000'000'000, 1);
  std::ostringstream os;
  t.write(os, 0.5);  // 2 GHz: 3 cycles = 1.5 ns = 0.0015 us
  // Plain decimals, no exponent (1e9 cycles * 0.5 ns = 500000 us), which every importer reads.
  EXPECT_NE(os.str().find("\"ts\":0.0015,"), std::string::npos);
  EXPECT_NE(os.str().find("\"ts\":500000,"), std::string::npos);
  json doc = json::parse(os.str());
  std::vector<json> x = of_phase(doc, "X");
  ASSERT_EQ(x.size(), 2u);
  EXPECT_DOUBLE_EQ(x[0].at("ts").get<double>(), 0.0015);
  EXPECT_DOUBLE_EQ(x[0].at("dur").get<double>(), 0.002);
  EXPECT_DOUBLE_EQ(x[1].at("ts").get<double>(), 500000.0);  // 1e9 cycles * 0.5 ns = 0.5 s
  EXPECT_DOUBLE_EQ(doc.at("otherData").at("cycle_ns").get<double>(), 0.5);
}

TEST(ChromeTrace, MetadataNamesEachSmAndWarpTrackOnce) {
  ChromeTrace t;
  t.slice(1, 9, "a", 0, 1);
  t.slice(0, 3, "b", 0, 1);
  t.slice(1, 8, "a", 1, 1);
  t.slice(0, 3, "c", 1, 1);
  t.slice(1, 9, "b", 2, 1);
  json doc = written(t, 1.0);
  std::vector<json> m = of_phase(doc, "M");
  // Tracks (0,3), (1,8), (1,9): 2 processes x (name, sort index) + 3 threads x (name, sort index).
  ASSERT_EQ(m.size(), 10u);
  std::vector<std::string> process_names, thread_names;
  for (const json& e : m) {
    if (e.at("name") == "process_name") {
      process_names.push_back(e.at("args").at("name").get<std::string>() + "@" +
                              std::to_string(e.at("pid").get<int>()));
    } else if (e.at("name") == "thread_name") {
      thread_names.push_back(e.at("args").at("name").get<std::string>() + "@" +
                             std::to_string(e.at("pid").get<int>()) + "/" +
                             std::to_string(e.at("tid").get<int>()));
    } else if (e.at("name") == "thread_sort_index") {
      EXPECT_EQ(e.at("args").at("sort_index"), e.at("tid"));
    } else {
      EXPECT_EQ(e.at("name"), "process_sort_index");
      EXPECT_EQ(e.at("args").at("sort_index"), e.at("pid"));
    }
  }
  EXPECT_EQ(process_names, (std::vector<std::string>{"SM 0@0", "SM 1@1"}));
  EXPECT_EQ(thread_names, (std::vector<std::string>{"warp 3@0/3", "warp 8@1/8", "warp 9@1/9"}));
}

TEST(ChromeTrace, NamesAreEscaped) {
  const std::string tricky =
      "say \"hi\"\\ \n\t\x01 \xc3\xa9";  // quote, backslash, controls, e-acute
  ChromeTrace t;
  t.slice(0, 0, tricky, 0, 1);
  t.slice(0, 0, std::string("bad \xff byte"), 1, 1);  // invalid UTF-8 is replaced, not fatal
  json doc = written(t, 1.0);
  std::vector<json> x = of_phase(doc, "X");
  ASSERT_EQ(x.size(), 2u);
  EXPECT_EQ(x[0].at("name"), tricky);
  EXPECT_EQ(x[1].at("name"), "bad \xef\xbf\xbd byte");  // U+FFFD
}

TEST(ChromeTrace, DropsPastMaxEventsAndSaysSo) {
  ChromeTrace t(2);
  for (uint64_t c = 0; c < 5; ++c) t.slice(0, 0, "i" + std::to_string(c), c, 1);
  EXPECT_EQ(t.events(), 2u);
  EXPECT_EQ(t.dropped(), 3u);
  json doc = written(t, 1.0);
  std::vector<json> x = of_phase(doc, "X");
  ASSERT_EQ(x.size(), 2u);  // the first two are kept
  EXPECT_EQ(x[0].at("name"), "i0");
  EXPECT_EQ(x[1].at("name"), "i1");
  EXPECT_EQ(doc.at("otherData").at("dropped_events"), 3);
}

TEST(ChromeTrace, EmptyTraceIsValid) {
  json doc = written(ChromeTrace(), 1.0);
  EXPECT_TRUE(doc.at("traceEvents").is_array());
  EXPECT_TRUE(doc.at("traceEvents").empty());
  EXPECT_EQ(doc.at("otherData").at("dropped_events"), 0);
}

TEST(ChromeTrace, RejectsBadParameters) {
  ChromeTrace t;
  std::ostringstream os;
  EXPECT_THROW(t.write(os, 0.0), std::invalid_argument);
  EXPECT_THROW(t.write(os, -1.0), std::invalid_argument);
  EXPECT_THROW(t.write(os, std::nan("")), std::invalid_argument);
  EXPECT_THROW(t.write(os, std::numeric_limits<double>::infinity()), std::invalid_argument);
  EXPECT_THROW(t.slice(0, 0, "x", 0, uint64_t(1) << 32), std::invalid_argument);
  EXPECT_EQ(t.events(), 0u);
}

}  // namespace
}  // namespace warptlm
