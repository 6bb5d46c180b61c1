// Factories of the example components (examples/components).
#pragma once

#include <memory>
#include <vector>

#include "config/plugins.h"

namespace warptlm_example {

std::unique_ptr<warptlm::WarpScheduler> make_youngest_first(unsigned slots,
                                                            const warptlm::SchedulerParams&);
std::unique_ptr<warptlm::ReconvergenceUnit> make_not_taken_first(unsigned warp_size,
                                                                 const warptlm::ComponentOptions&);
// The statistic not_taken_first counts beyond the shared ones.
std::vector<warptlm::StatInfo> not_taken_first_stats();
std::unique_ptr<warptlm::CompactionUnit> make_adequate_tbc(const warptlm::CompactionSetup& setup);
// Its option: adequate_tbc.min_saving.
std::vector<warptlm::OptionInfo> adequate_tbc_options();

}  // namespace warptlm_example
