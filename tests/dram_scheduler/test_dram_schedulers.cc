// The DRAM request schedulers by name: frfcfs takes the oldest row hit among
// free banks, else the oldest free one; fcfs only the oldest; the registry
// lists, makes and refuses by name.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "dram/scheduler/dram_scheduler.h"

namespace warptlm {
namespace {

DramRequest request(unsigned bank, uint64_t row) {
  DramRequest r;
  r.bank = bank;
  r.row = row;
  return r;
}

TEST(DramSchedulers, BuiltInsAreRegisteredInOrder) {
  const std::vector<std::string> names = dram_scheduler_registry_names();
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0], "frfcfs");
  EXPECT_EQ(names[1], "fcfs");
  for (const auto& [name, description] : dram_scheduler_descriptions())
    EXPECT_FALSE(description.empty()) << name;
}

TEST(DramSchedulers, FrFcfsTakesTheOldestRowHitAmongFreeBanks) {
  auto s = make_dram_scheduler("frfcfs", 4);
  EXPECT_FALSE(s->in_order());
  std::vector<DramBankState> banks(4);
  banks[0] = {true, 7, 0};   // row 7 open, free
  banks[1] = {true, 3, 50};  // busy until 50
  banks[2] = {false, 0, 0};  // closed, free
  const std::vector<DramRequest> queue = {request(1, 3), request(2, 9), request(0, 5),
                                          request(0, 7), request(0, 7)};
  // Bank 1's row hit is not free; bank 0's first hit (index 3) wins over older misses.
  EXPECT_EQ(s->pick(queue, banks, 10), 3u);
  // At 50 bank 1 is free: its hit is the oldest.
  EXPECT_EQ(s->pick(queue, banks, 50), 0u);
  // No hit among free banks: the oldest free request.
  banks[0].row = 1;
  EXPECT_EQ(s->pick(queue, banks, 10), 1u);
}

TEST(DramSchedulers, FcfsStartsOnlyTheOldest) {
  auto s = make_dram_scheduler("fcfs", 2);
  EXPECT_TRUE(s->in_order());
  std::vector<DramBankState> banks(2);
  banks[1] = {true, 4, 0};
  EXPECT_EQ(s->pick({request(0, 1), request(1, 4)}, banks, 0), 0u);
}

std::unique_ptr<DramScheduler> make_test_fcfs(unsigned banks) {
  return make_dram_scheduler("fcfs", banks);
}

TEST(DramSchedulers, RegistryRefusesDuplicatesAndNamesTheFieldForUnknownNames) {
  EXPECT_THROW(register_dram_scheduler("fcfs", &make_test_fcfs), std::invalid_argument);
  EXPECT_THROW(register_dram_scheduler("", &make_test_fcfs), std::invalid_argument);
  EXPECT_THROW(register_dram_scheduler("null_sched", nullptr), std::invalid_argument);
  register_dram_scheduler("fcfs_again", &make_test_fcfs, "fcfs under another name");
  EXPECT_EQ(dram_scheduler_registry_names().back(), "fcfs_again");
  EXPECT_TRUE(make_dram_scheduler("fcfs_again", 2)->in_order());
  try {
    make_dram_scheduler("bliss", 2);
    FAIL();
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("memory.dram.scheduler: unknown DRAM scheduler 'bliss'"), std::string::npos)
        << what;
    EXPECT_NE(what.find("frfcfs"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace warptlm
