// ssdsim: the simulator's command line. Parses the subcommand, runs it, and maps what went wrong
// to an exit code (exit_codes.h): bad input names the option, file or line; an internal error
// says the simulation stopped.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <systemc>

#include "fw/ftl/ftl_options.h"
#include "fw/hal/table_placer.h"
#include "platforms/config/platform_config.h"
#include "platforms/run/alone_runs.h"
#include "platforms/run/input_errors.h"
#include "platforms/sim/exit_codes.h"
#include "platforms/sim/info_commands.h"
#include "platforms/sim/run_command.h"
#include "platforms/sim/standin_command.h"
#include "stimuli/host_request.h"
#include "tlm/sanitizer_stack.h"
#include "tlm/time_base.h"

namespace {

using namespace ssd::platform;

// Errors in what the user gave us (options, platform file, trace, sizes) as opposed to the model
// stopping on an internal error.
bool is_bad_input(const std::exception& e) {
  return dynamic_cast<const CLI::ValidationError*>(&e) || is_input_error(e);
}

int run(RunCommand& command) {
  resolve_run(command);
  // Each flow alone first (child processes, before this one elaborates), then all together.
  const std::vector<AloneRun> alone = command.run.alone_runs ? run_flows_alone(command.run) : std::vector<AloneRun>{};
  RunOutcome outcome = run_simulation(command.run);
  if (!alone.empty()) add_slowdowns(outcome.report, alone);
  write_run_outputs(command, outcome);
  if (!outcome.integrity_ok) {
    std::cerr << "ssdsim: INTEGRITY FAILURE: " << outcome.report["integrity"].dump() << '\n';
    return kExitIntegrity;
  }
  return kExitOk;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  ssd::tlmx::init_time_base();
  CLI::App app{"ssdsim: SystemC/TLM-2.0 co-simulation of an SSD (NAND, channels, controller, firmware, host)"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every subcommand");

  RunCommand run_command;
  add_run_command(app, run_command);
  auto* ftls = app.add_subcommand("ftls", "list the FTLs the firmware can run");
  std::string validate_file;
  std::vector<std::string> validate_overrides;
  auto* validate = app.add_subcommand("validate", "check a platform file and print its effective parameters");
  validate->add_option("platform", validate_file, "platform file (YAML)")->required();
  validate->add_option("--set", validate_overrides, "override a parameter: key=value");
  auto* params = app.add_subcommand("params", "list every platform parameter with its type, unit, range and default");
  StandinCommand standin_command;
  auto* standin = add_standin_command(app, standin_command);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (*ftls) {
      print_ftls();
      return kExitOk;
    }
    if (*params) {
      print_params();
      return kExitOk;
    }
    if (*validate) {
      print_validation(validate_file, validate_overrides);
      return kExitOk;
    }
    if (*standin) {
      run_standin(standin_command);
      return kExitOk;
    }
    return run(run_command);
  } catch (const std::exception& e) {
    if (is_bad_input(e)) {
      std::cerr << "ssdsim: " << e.what() << '\n';
      return kExitBadInput;
    }
    std::cerr << "ssdsim: simulation stopped: " << e.what() << '\n';
    return kExitInternal;
  }
}

// SystemC prints its banner before sc_main runs; keep stdout for the summary and the reports.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  // A workload error ends the run through sc_stop(); its notice is noise next to our message.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  const int status = sc_core::sc_elab_and_sim(argc, argv);
  ssd::tlmx::sanitizer_back_on_thread_stack();
  return status;
}
