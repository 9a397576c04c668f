// joco-compile MODEL [-o OUT.jmb] [--print json|text]
// Compiles MJCF or URDF (or reads a .jmb) into a binary model, and/or dumps the compiled model's
// fields; with neither, validates the model and summarises it.
#include <spdlog/spdlog.h>

#include <iostream>
#include <sstream>

#include "common/io.h"
#include "common/model_input.h"
#include "common/tool.h"
#include "joco/error.h"
#include "joco/jmb.h"
#include "joco/model_print.h"

int main(int argc, char** argv) {
  std::string input, output, print;
  return joco::tools::run_tool(
      argc, argv, "joco-compile",
      "Compile an MJCF or URDF model (or read a .jmb) into a joco binary model.",
      [&](CLI::App& app) {
        app.add_option("MODEL", input, "Model: .xml (MJCF), .urdf, .jmb, or - for standard input")
            ->required();
        joco::tools::add_output_check(app.add_option(
            "-o,--output", output, "Write the binary model here (- for standard output)"));
        app.add_option("--print", print, "Dump the compiled model to standard output: json or text")
            ->check(CLI::IsMember({"json", "text"}));
      },
      [&](const joco::tools::ToolContext&) {
        if (output == "-" && !print.empty()) {
          throw joco::tools::UsageError("-o - and --print both want standard output; choose one");
        }
        if (!output.empty()) joco::tools::refuse_binary_to_terminal(output);  // before the work
        const joco::Model model = joco::tools::load_model(input);
        spdlog::info("{}: nq={} nv={} nu={} nbody={} ngeom={}", joco::tools::display_name(input),
                     model.nq, model.nv, model.nu, model.nbody, model.ngeom);
        if (output.empty() && print.empty()) {
          // Nothing to write: the model is valid (it compiled); say what it holds.
          std::ostringstream summary;
          summary << joco::tools::display_name(input) << ": valid";
          if (!model.model_name().empty()) summary << ", model \"" << model.model_name() << "\"";
          summary
              << "\n  nq=" << model.nq << " nv=" << model.nv << " nu=" << model.nu
              << " na=" << model.na << " nbody=" << model.nbody << " njnt=" << model.njnt
              << " ngeom=" << model.ngeom << " nsite=" << model.nsite << "\n  nmesh=" << model.nmesh
              << " nhfield=" << model.nhfield << " ntendon=" << model.ntendon
              << " neq=" << model.neq << " nsensor=" << model.nsensor << " nkey=" << model.nkey
              << "\n  timestep=" << model.opt.timestep << " s"
              << "\n(-o OUT.jmb writes the binary model; --print json|text dumps every field)\n";
          joco::tools::write_output("-", summary.str());
        }
        if (!output.empty()) joco::tools::write_output(output, joco::write_jmb(model));
        if (!print.empty()) {
          std::ostringstream text;
          if (print == "json")
            joco::print_model_json(model, text);
          else
            joco::print_model_text(model, text);
          const std::string s = text.str();
          joco::tools::write_output("-", s);
        }
        return 0;
      });
}
