// Text both CLIs print or write, made in one place so `warptlm` and
// `python3 -m warptlm` cannot disagree: what `list` prints (presets,
// scenarios, schemes, statistics, configuration fields; docs/statistics.md),
// and the stats.txt summary and PTX fingerprint of a run record.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace warptlm::cli {

// The sections `list` knows, in the order `list` without a section prints
// the first four of them.
const std::vector<std::string>& list_sections();

// The text of one section ("presets", "scenarios", "schemes", "statistics",
// "fields"), or of every default section for ""; `markdown`: the statistics
// registry as docs/statistics.md. std::invalid_argument for an unknown section.
std::string list_text(const std::string& section, bool markdown = false);

// A run record's statistics as text, gem5's stats.txt style: a header line,
// then one statistic a line with its value, meaning and unit.
std::string stats_text(const nlohmann::json& record);

// FNV-1a (64-bit) of `text` in hex: the run record's fingerprint of the PTX.
std::string fnv1a64(const std::string& text);

}  // namespace warptlm::cli
