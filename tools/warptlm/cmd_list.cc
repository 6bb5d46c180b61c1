// `warptlm list [SECTION] [--markdown]`: presets, scenarios, schemes,
// statistics, configuration fields (the same text as `python3 -m warptlm list`).
#include <iostream>

#include "cli_text.h"
#include "commands.h"

namespace warptlm::cli {

CLI::App* add_list(CLI::App& app, ListCommand& c) {
  CLI::App* cmd = app.add_subcommand(
      "list", "List presets, scenarios, schemes and statistics (or one of them, or fields).");
  cmd->add_option("section", c.what, "presets, scenarios, schemes, statistics or fields")
      ->check(CLI::IsMember(list_sections()));
  cmd->add_flag("--markdown", c.markdown, "statistics as docs/statistics.md");
  return cmd;
}

int cmd_list(const ListCommand& c) {
  std::cout << list_text(c.what, c.markdown);
  return 0;
}

}  // namespace warptlm::cli
