// joco-urdf2mjcf ROBOT.urdf [-o OUT.xml] [--package-path PKG=DIR ...] [options]
// Converts a URDF robot into MJCF a person can read and edit; standard output by default, so that
// it fits shell pipelines (joco-urdf2mjcf r.urdf | joco-compile - -o r.jmb).
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "common/io.h"
#include "common/model_input.h"
#include "common/tool.h"
#include "joco/error.h"
#include "joco/urdf.h"
#include "urdf2mjcf/mesh_convert.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::string input, output = "-", actuators = "none";
  std::vector<std::string> package_paths;
  joco::UrdfOptions options;
  // Switches that override the URDF's <mujoco><compiler> extension only when given.
  bool fuse_fixed = true, visual = true, balance_inertia = false, no_classes = false;
  bool exclude = false, convert_meshes = true;
  CLI::Option* exclude_flag = nullptr;
  CLI::Option *fuse_flag = nullptr, *visual_flag = nullptr, *balance_flag = nullptr;
  return joco::tools::run_tool(
      argc, argv, "joco-urdf2mjcf",
      "Convert a URDF robot into MJCF that a person can read (standard output by default).",
      [&](CLI::App& app) {
        app.add_option("ROBOT", input, "The URDF file, or - for standard input")->required();
        joco::tools::add_output_check(app.add_option(
            "-o,--output", output, "Write the MJCF here (default: - for standard output)"));
        app.add_option("--package-path", package_paths,
                       "Where package://NAME/... meshes are: NAME=DIR (repeatable; "
                       "ROS_PACKAGE_PATH is searched after)")
            ->type_name("NAME=DIR")
            ->allow_extra_args(false);  // one NAME=DIR per flag, so ROBOT may follow
        app.add_flag("--floating", options.floating, "Give the root link a free joint");
        app.add_flag("--floor", options.floor,
                     "Add a ground plane (checker material) and a light; with --floating, place "
                     "the robot's lowest collision geometry 1 mm above it");
        exclude_flag = app.add_flag(
            "--exclude-self-contacts,!--no-exclude-self-contacts", exclude,
            "Exclude (<contact><exclude>) the body pairs in contact in the reference pose and the "
            "parent-child pairs MuJoCo lets collide (default with --floor)");
        app.add_flag(
            "--convert-meshes,!--no-convert-meshes", convert_meshes,
            joco::tools::MeshConverter::available()
                ? "Convert meshes the compiler cannot read (COLLADA, ...) to OBJ beside the "
                  "output with assimp (default; --no-convert-meshes leaves them out)"
                : "Convert meshes the compiler cannot read to OBJ (this build has no "
                  "assimp: they are left out)");
        fuse_flag = app.add_flag("--fuse-fixed,!--no-fuse-fixed", fuse_fixed,
                                 "Fuse links on fixed joints into their parent body (default; "
                                 "--no-fuse-fixed keeps them as bodies)");
        visual_flag = app.add_flag("--visual,!--no-visual", visual,
                                   "Keep visual geoms, drawn only (default; --no-visual keeps "
                                   "collision geoms only)");
        app.add_option("--actuators", actuators,
                       "Actuators to make, one per non-fixed joint (or per <transmission>): none, "
                       "motor or position")
            ->check(CLI::IsMember({"none", "motor", "position"}));
        app.add_option("--kp", options.kp, "Position gain of --actuators position (default 100)")
            ->check(joco::tools::kPositive);
        balance_flag = app.add_flag("--balance-inertia,!--no-balance-inertia", balance_inertia,
                                    "Replace inertias that violate A + B >= C by the mean of "
                                    "their principal moments (MuJoCo's balanceinertia)");
        app.add_flag(
            "--strict", options.strict,
            "Treat every warning (unreadable mesh format, dubious limits, ...) as an error");
        app.add_flag("--no-default-classes", no_classes,
                     "Write every attribute on its element (no default classes)");
      },
      [&](const joco::tools::ToolContext& ctx) {
        for (const std::string& p : package_paths) {
          const size_t eq = p.find('=');
          if (eq == std::string::npos || eq == 0 || eq + 1 == p.size()) {
            throw joco::tools::UsageError("--package-path wants NAME=DIR, not '" + p + "'");
          }
          options.package_paths.emplace_back(p.substr(0, eq), p.substr(eq + 1));
        }
        options.ros_package_path = joco::tools::split_path_list(std::getenv("ROS_PACKAGE_PATH"));
        if (fuse_flag->count()) options.fuse_fixed = fuse_fixed;
        if (visual_flag->count()) options.visual = visual;
        if (balance_flag->count()) options.balance_inertia = balance_inertia;
        options.default_classes = !no_classes;
        // With the floor the robot is meant to stand: no part of it may touch another for good.
        options.exclude_self_collisions = exclude_flag->count() ? exclude : options.floor;
        options.actuators = actuators == "motor"      ? joco::UrdfOptions::Actuators::kMotor
                            : actuators == "position" ? joco::UrdfOptions::Actuators::kPosition
                                                      : joco::UrdfOptions::Actuators::kNone;
        options.base_dir =
            input == "-" ? fs::current_path().string() : fs::path(input).parent_path().string();
        if (options.base_dir.empty()) options.base_dir = ".";
        options.output_dir =
            output == "-" ? fs::current_path().string() : fs::path(output).parent_path().string();
        if (options.output_dir.empty()) options.output_dir = ".";
        joco::tools::MeshConverter converter(options.output_dir);
        if (convert_meshes && joco::tools::MeshConverter::available()) {
          options.convert_mesh = [&](const std::string& path, std::string& note) {
            return converter(path, note);
          };
        }
        // For the header comment (XML comments cannot hold "--", so the options go without dashes).
        std::vector<std::string> words;
        if (options.floating) words.push_back("floating");
        if (options.floor) words.push_back("floor");
        if (options.fuse_fixed) words.push_back(fuse_fixed ? "fuse-fixed" : "no-fuse-fixed");
        if (options.visual) words.push_back(visual ? "visual" : "no-visual");
        if (actuators != "none") words.push_back("actuators " + actuators);
        if (actuators == "position") words.push_back(fmt::format("kp {}", options.kp));
        if (options.balance_inertia)
          words.push_back(balance_inertia ? "balance-inertia" : "no-balance-inertia");
        if (options.strict) words.push_back("strict");
        if (no_classes) words.push_back("no-default-classes");
        if (exclude_flag->count())
          words.push_back(exclude ? "exclude-self-contacts" : "no-exclude-self-contacts");
        if (!convert_meshes) words.push_back("no-convert-meshes");
        for (const std::string& p : package_paths) words.push_back("package-path " + p);
        std::string text;
        for (const std::string& w : words) text += (text.empty() ? "" : ", ") + w;
        options.options_text = text;

        const std::vector<uint8_t> bytes = joco::tools::read_input(input);
        const std::string name = joco::tools::display_name(input);
        joco::UrdfReport report;
        const std::string mjcf =
            joco::urdf_to_mjcf(std::string(bytes.begin(), bytes.end()), name, options, &report);
        joco::tools::write_output(output, mjcf);
        for (const std::string& w : report.warnings) spdlog::warn("{}", w);
        if (!ctx.quiet()) {
          for (const std::string& line : report.summary)
            std::cerr << ctx.name << ": " << line << "\n";
        }
        return 0;
      });
}
