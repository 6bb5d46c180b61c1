// warptlm: the command-line front door to the model.
#include <iostream>

#include "commands.h"
#include "config/plugins.h"
#include "config/version.h"
#include "exec/functional_executor.h"
#include "frontend/ptx_error.h"
#include "run_output.h"

int main(int argc, char** argv) {
  using namespace warptlm::cli;
  // Before the options are parsed: a plug-in's components are names they accept.
  try {
    warptlm::load_plugins_from_environment();
  } catch (const std::exception& e) {
    std::cerr << "warptlm: WARPTLM_PLUGINS: " << e.what() << "\n";
    return 2;
  }
  CLI::App app{"warptlm: a SystemC/TLM-2.0 SIMT GPU model for control-flow research.", "warptlm"};
  app.set_version_flag("--version", std::string("warptlm ") + warptlm::version());
  app.require_subcommand(1);
  app.fallthrough(false);
  AnalyzeCommand analyze;
  ExecCommand exec;
  RunCommand run;
  ListCommand list;
  PlatformCommand platform;
  ElaborateCommand elaborate;
  CLI::App* analyze_cmd = add_analyze(app, analyze);
  CLI::App* exec_cmd = add_exec(app, exec);
  CLI::App* run_cmd = add_run(app, run);
  CLI::App* list_cmd = add_list(app, list);
  CLI::App* platform_cmd = add_platform(app, platform);
  CLI::App* elaborate_cmd = add_elaborate(app, elaborate);
  if (argc < 2) {
    std::cout << app.help();
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string command;
    for (const CLI::App* sub : app.get_subcommands()) command = " " + sub->get_name();
    std::cerr << "warptlm" << command << ": " << e.what() << "\nRun 'warptlm" << command
              << " --help' for the options.\n";
    return 2;
  }
  try {
    if (*analyze_cmd) return cmd_analyze(analyze);
    if (*exec_cmd) return cmd_exec(exec);
    if (*run_cmd) return cmd_run(run);
    if (*list_cmd) return cmd_list(list);
    if (*platform_cmd) return cmd_platform(platform);
    if (*elaborate_cmd) return cmd_elaborate(elaborate);
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "warptlm: " << e.what() << "\n";
    return 2;
  } catch (const warptlm::PtxError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const warptlm::KernelFault& e) {
    std::cout << std::flush;
    warptlm::cli::print_kernel_output(e.output);  // printf's text before the fault
    std::cerr << "warptlm: kernel fault: " << e.what() << "\n";
    return 1;
  } catch (const std::invalid_argument& e) {  // a bad configuration value, scenario or launch
    std::cerr << "warptlm: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "warptlm: error: " << e.what() << "\n";
    return 1;
  }
}
