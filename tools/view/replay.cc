#include "view/replay.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <span>

#include "common/report.h"
#include "common/trajectory.h"
#include "joco/data.h"
#include "joco/error.h"
#include "joco/smooth.h"
#include "view/packing.h"

namespace joco::tools::view {
namespace {

using Layout = JsonWriter::Layout;

// An object's name, or its kind and index when it has none ("joint3").
std::string object_name(const Model& m, ObjType type, int id, const char* kind) {
  const std::string_view name = m.name(type, id);
  return name.empty() ? fmt::format("{}{}", kind, id) : std::string(name);
}

// Model arrays are float or double; the page reads floats: 7 significant digits are enough.
template <typename T>
void numbers(JsonWriter& w, const T* values, int n) {
  w.begin_array(Layout::kInline);
  for (int i = 0; i < n; ++i) w.number(static_cast<double>(values[i]), 7);
  w.end_array();
}

void member(JsonWriter& w, const char* key, const std::string& text) { w.key(key).value(text); }

// MuJoCo uses a material's colour unless the geom's (or site's) rgba was set, i.e. differs from
// the default (0.5, 0.5, 0.5, 1).
const float* shown_rgba(const Model& m, const float* own, int matid) {
  static constexpr float kDefault[4] = {0.5f, 0.5f, 0.5f, 1.0f};
  if (matid >= 0 && std::equal(own, own + 4, kDefault)) return m.mat_rgba + 4 * matid;
  return own;
}

constexpr const char* kCamModes[] = {"fixed", "track", "trackcom", "targetbody", "targetbodycom"};
constexpr const char* kTexTypes[] = {"2d", "cube", "skybox"};
constexpr const char* kJointTypes[] = {"free", "ball", "slide", "hinge"};

// A texture's pixels, shrunk by the smallest integer factor that brings both sides within
// `max_size` (averaging each block), as a PNG in base64. A cube or skybox texture keeps its faces
// whole: its width is the face's side, so the factor divides the width.
std::string texture_png(const Model& m, int t, int max_size) {
  const int w = m.tex_width[t], h = m.tex_height[t];
  if (w <= 0 || h <= 0) return "";
  const uint8_t* rgb = m.tex_rgb + m.tex_adr[t];
  int factor = 1;
  while ((w / factor > max_size || (m.tex_type[t] == kTexture2D && h / factor > max_size)) &&
         w / factor > 1) {
    ++factor;
    while (w % factor != 0 || h % factor != 0) ++factor;  // whole blocks (factor <= w ends it)
  }
  const int sw = w / factor, sh = h / factor;
  std::vector<uint8_t> small(size_t(sw) * size_t(sh) * 3);
  for (int y = 0; y < sh; ++y) {
    for (int x = 0; x < sw; ++x) {
      for (int c = 0; c < 3; ++c) {
        int sum = 0;
        for (int dy = 0; dy < factor; ++dy) {
          for (int dx = 0; dx < factor; ++dx) {
            sum += rgb[(size_t(y * factor + dy) * size_t(w) + size_t(x * factor + dx)) * 3 + c];
          }
        }
        small[(size_t(y) * size_t(sw) + size_t(x)) * 3 + c] =
            static_cast<uint8_t>((sum + factor * factor / 2) / (factor * factor));
      }
    }
  }
  return base64(encode_png_rgb(small, sw, sh));
}

void write_model(JsonWriter& w, const Model& m, const ReplayOptions& o) {
  w.key("model").begin_object();
  member(w, "name", std::string(m.model_name()));
  w.key("nbody").value(m.nbody);

  w.key("bodies").begin_array();
  for (int b = 0; b < m.nbody; ++b) {
    w.begin_object(Layout::kInline);
    member(w, "name", object_name(m, kObjBody, b, "body"));
    w.key("parent").value(b == 0 ? -1 : m.body_parentid[b]);
    w.key("mocap").value(m.body_mocapid[b] >= 0);
    w.end_object();
  }
  w.end_array();

  w.key("stat").begin_object(Layout::kInline);
  w.key("center");
  numbers(w, &m.stat.center[0], 3);
  w.key("extent").number(m.stat.extent, 7);
  w.key("meansize").number(m.stat.meansize, 7);
  w.end_object();

  const double extent = m.stat.extent;
  w.key("visual").begin_object(Layout::kInline);
  w.key("fovy").number(m.vis.global.fovy, 7);
  w.key("headlight").begin_object(Layout::kInline);
  w.key("ambient");
  numbers(w, &m.vis.headlight.ambient[0], 3);
  w.key("diffuse");
  numbers(w, &m.vis.headlight.diffuse[0], 3);
  w.key("specular");
  numbers(w, &m.vis.headlight.specular[0], 3);
  w.key("active").value(static_cast<int>(m.vis.headlight.active));
  w.end_object();
  w.key("fog").begin_object(Layout::kInline);
  w.key("start").number(m.vis.map.fogstart * extent, 7);
  w.key("end").number(m.vis.map.fogend * extent, 7);
  w.key("rgba");
  numbers(w, &m.vis.rgba.fog[0], 4);
  w.end_object();
  w.key("znear").number(m.vis.map.znear * extent, 7);
  w.key("zfar").number(m.vis.map.zfar * extent, 7);
  w.key("rgba_haze");
  numbers(w, &m.vis.rgba.haze[0], 4);
  w.key("haze").number(m.vis.map.haze, 7);
  w.end_object();

  w.key("geoms").begin_array();
  for (int g = 0; g < m.ngeom; ++g) {
    const int type = m.geom_type[g], dataid = m.geom_dataid[g];
    w.begin_object(Layout::kInline);
    member(w, "name", std::string(m.name(kObjGeom, g)));
    w.key("body").value(m.geom_bodyid[g]);
    member(w, "type", kGeomTypeNames[type]);
    w.key("group").value(m.geom_group[g]);
    w.key("size");
    numbers(w, m.geom_size + 3 * g, 3);
    w.key("pos");
    numbers(w, m.geom_pos + 3 * g, 3);
    w.key("quat");
    numbers(w, m.geom_quat + 4 * g, 4);
    w.key("rgba");
    numbers(w, shown_rgba(m, m.geom_rgba + 4 * g, m.geom_matid[g]), 4);
    w.key("material").value(m.geom_matid[g]);
    w.key("mesh").value(type == kGeomMesh ? dataid : -1);
    w.key("hfield").value(type == kGeomHfield ? dataid : -1);
    w.end_object();
  }
  w.end_array();

  w.key("sites").begin_array();
  for (int s = 0; s < m.nsite; ++s) {
    w.begin_object(Layout::kInline);
    member(w, "name", std::string(m.name(kObjSite, s)));
    w.key("body").value(m.site_bodyid[s]);
    member(w, "type", kGeomTypeNames[m.site_type[s]]);
    w.key("group").value(m.site_group[s]);
    w.key("size");
    numbers(w, m.site_size + 3 * s, 3);
    w.key("pos");
    numbers(w, m.site_pos + 3 * s, 3);
    w.key("quat");
    numbers(w, m.site_quat + 4 * s, 4);
    w.key("rgba");
    numbers(w, shown_rgba(m, m.site_rgba + 4 * s, m.site_matid[s]), 4);
    w.end_object();
  }
  w.end_array();

  w.key("materials").begin_array();
  for (int k = 0; k < m.nmat; ++k) {
    w.begin_object(Layout::kInline);
    member(w, "name", std::string(m.name(kObjMaterial, k)));
    w.key("rgba");
    numbers(w, m.mat_rgba + 4 * k, 4);
    w.key("emission").number(m.mat_emission[k], 7);
    w.key("specular").number(m.mat_specular[k], 7);
    w.key("shininess").number(m.mat_shininess[k], 7);
    w.key("reflectance").number(m.mat_reflectance[k], 7);
    w.key("texrepeat");
    numbers(w, m.mat_texrepeat + 2 * k, 2);
    w.key("texuniform").value(m.mat_texuniform[k] != 0);
    w.key("texture").value(m.mat_texid[k]);
    w.end_object();
  }
  w.end_array();

  // A compiled model keeps a texture's pixels, not how they were made: every texture is its
  // pixels as a PNG ("builtin" is "none").
  w.key("textures").begin_array();
  static constexpr float kBlack[3] = {0, 0, 0};
  for (int t = 0; t < m.ntex; ++t) {
    w.begin_object(Layout::kInline);
    member(w, "name", std::string(m.name(kObjTexture, t)));
    member(w, "type", kTexTypes[m.tex_type[t]]);
    member(w, "builtin", "none");
    w.key("rgb1");
    numbers(w, kBlack, 3);
    w.key("rgb2");
    numbers(w, kBlack, 3);
    member(w, "mark", "none");
    w.key("markrgb");
    numbers(w, kBlack, 3);
    w.key("width").value(m.tex_width[t]);
    w.key("height").value(m.tex_height[t]);
    member(w, "png", texture_png(m, t, o.max_texture_size));
    w.end_object();
  }
  w.end_array();

  w.key("meshes").begin_array();
  for (int k = 0; k < m.nmesh; ++k) {
    const int nv = m.mesh_vertnum[k], nf = m.mesh_facenum[k];
    std::vector<uint32_t> faces(m.mesh_face + 3 * m.mesh_faceadr[k],
                                m.mesh_face + 3 * (m.mesh_faceadr[k] + nf));
    w.begin_object(Layout::kInline);
    member(w, "name", std::string(m.name(kObjMesh, k)));
    member(w, "vertices",
           base64_float32(
               std::span<const float>(m.mesh_vert + 3 * m.mesh_vertadr[k], size_t(nv) * 3)));
    member(w, "faces", base64_uint32(faces));
    w.key("nv").value(nv);
    w.key("nf").value(nf);
    w.end_object();
  }
  w.end_array();

  w.key("hfields").begin_array();
  for (int k = 0; k < m.nhfield; ++k) {
    const int nrow = m.hfield_nrow[k], ncol = m.hfield_ncol[k];
    w.begin_object(Layout::kInline);
    member(w, "name", std::string(m.name(kObjHfield, k)));
    w.key("nrow").value(nrow);
    w.key("ncol").value(ncol);
    w.key("size");
    numbers(w, m.hfield_size + 4 * k, 4);
    member(w, "data",
           base64_float32(std::span<const float>(m.hfield_data + m.hfield_adr[k],
                                                 size_t(nrow) * size_t(ncol))));
    w.end_object();
  }
  w.end_array();

  w.key("lights").begin_array();
  for (int k = 0; k < m.nlight; ++k) {
    w.begin_object(Layout::kInline);
    w.key("body").value(m.light_bodyid[k]);
    w.key("pos");
    numbers(w, m.light_pos + 3 * k, 3);
    w.key("dir");
    numbers(w, m.light_dir + 3 * k, 3);
    w.key("directional").value(m.light_directional[k] != 0);
    w.key("castshadow").value(m.light_castshadow[k] != 0);
    w.key("active").value(m.light_active[k] != 0);
    w.key("ambient");
    numbers(w, m.light_ambient + 3 * k, 3);
    w.key("diffuse");
    numbers(w, m.light_diffuse + 3 * k, 3);
    w.key("specular");
    numbers(w, m.light_specular + 3 * k, 3);
    w.key("attenuation");
    numbers(w, m.light_attenuation + 3 * k, 3);
    w.key("cutoff").number(m.light_cutoff[k], 7);
    w.key("exponent").number(m.light_exponent[k], 7);
    w.end_object();
  }
  w.end_array();

  w.key("cameras").begin_array();
  for (int k = 0; k < m.ncam; ++k) {
    w.begin_object(Layout::kInline);
    member(w, "name", object_name(m, kObjCamera, k, "camera"));
    w.key("body").value(m.cam_bodyid[k]);
    member(w, "mode", kCamModes[m.cam_mode[k]]);
    w.key("target").value(m.cam_targetbodyid[k]);
    w.key("pos");
    numbers(w, m.cam_pos + 3 * k, 3);
    w.key("quat");
    numbers(w, m.cam_quat + 4 * k, 4);
    w.key("fovy").number(m.cam_fovy[k], 7);
    w.end_object();
  }
  w.end_array();

  w.key("joints").begin_array();
  for (int j = 0; j < m.njnt; ++j) {
    w.begin_object(Layout::kInline);
    member(w, "name", object_name(m, kObjJoint, j, "joint"));
    w.key("body").value(m.jnt_bodyid[j]);
    member(w, "type", kJointTypes[m.jnt_type[j]]);
    w.key("pos");
    numbers(w, m.jnt_pos + 3 * j, 3);
    w.key("axis");
    numbers(w, m.jnt_axis + 3 * j, 3);
    w.end_object();
  }
  w.end_array();

  w.key("keyframes").begin_array();
  for (int k = 0; k < m.nkey; ++k) {
    w.begin_object(Layout::kInline);
    member(w, "name", std::string(m.name(kObjKey, k)));
    w.key("time").number(m.key_time[k], 0);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

// The frames of one trajectory as the page gets them, gathered frame by frame.
struct Frames {
  std::vector<float> time, xpos, xquat, com;
  bool has_contacts = false;
  std::vector<uint32_t> ncon;
  std::vector<float> contact_pos, contact_force;
  struct Plot {
    std::string name;
    std::vector<std::string> columns;
    std::vector<float> values;
  };
  std::vector<Plot> plots;

  // The poses of the state in d: joco's kinematics, and the subtree centre of mass of the world.
  void add_pose(const Model& m, Data& d) {
    kinematics(m, d);
    com_pos(m, d);
    time.push_back(static_cast<float>(d.time));
    xpos.insert(xpos.end(), d.xpos, d.xpos + 3 * m.nbody);
    xquat.insert(xquat.end(), d.xquat, d.xquat + 4 * m.nbody);
    com.insert(com.end(), d.subtree_com, d.subtree_com + 3);
  }
};

void write_trajectory(JsonWriter& w, const std::string& name, const std::string& source,
                      int decimation, const Frames& f) {
  w.begin_object();
  member(w, "name", name);
  member(w, "source", source);
  w.key("nframes").value(f.time.size());
  w.key("decimation").value(decimation);
  member(w, "time", base64_float32(f.time));
  member(w, "xpos", base64_float32(f.xpos));
  member(w, "xquat", base64_float32(f.xquat));
  member(w, "com", base64_float32(f.com));
  w.key("contacts");
  if (f.has_contacts) {
    w.begin_object();
    member(w, "ncon", base64_uint32(f.ncon));
    member(w, "pos", base64_float32(f.contact_pos));
    member(w, "force", base64_float32(f.contact_force));
    w.end_object();
  } else {
    w.null();
  }
  w.key("plots").begin_array();
  for (const Frames::Plot& p : f.plots) {
    w.begin_object(Layout::kInline);
    member(w, "name", p.name);
    w.key("columns").begin_array(Layout::kInline);
    for (const std::string& c : p.columns) w.value(c);
    w.end_array();
    member(w, "values", base64_float32(p.values));
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

// One state of the model (its initial state or a keyframe) as a trajectory of one frame, with
// qpos as its plot.
void write_model_state(JsonWriter& w, const Model& m, Data& d, const std::string& name) {
  Frames f;
  f.add_pose(m, d);
  f.plots.push_back({"qpos", dataset_columns(m, "qpos", size_t(m.nq)),
                     std::vector<float>(d.qpos, d.qpos + m.nq)});
  write_trajectory(w, name, "model", 1, f);
}

// The group's dataset `name` of shape (rows, nmocap, width) with finite values, or nullopt when
// the model has no mocap body or the group has no such dataset. A dataset of another shape or with
// a value that is not finite is an input error naming it.
std::optional<Matrix> mocap_dataset(const Model& m, const Trajectory& t, const std::string& name,
                                    size_t width, size_t rows) {
  if (m.nmocap == 0 || !t.has_extra(name)) return std::nullopt;
  std::vector<size_t> dims;
  Matrix values = t.read_extra(name, &dims);
  if (dims != std::vector<size_t>{rows, size_t(m.nmocap), width}) {
    throw InputError(
        fmt::format("{}/{}: shape ({}) does not fit the trajectory: ({}, {}, {}) "
                    "(rows, nmocap, {})",
                    t.where(), name, fmt::join(dims, ", "), rows, m.nmocap, width, width));
  }
  for (size_t i = 0; i < values.data.size(); ++i) {
    if (!std::isfinite(values.data[i])) {
      throw InputError(fmt::format("{}/{}: row {} has a value that is not finite", t.where(), name,
                                   i / values.cols));
    }
  }
  return values;
}

// A trajectory group of the file, decimated, with its poses, contacts and per-row datasets.
void write_file_trajectory(JsonWriter& w, const Model& m, Trajectory& t, const ReplayOptions& o) {
  const TrajectoryStates states(m, t);  // validates against the model; qpos required
  const size_t rows = states.rows();
  if (rows == 0) throw InputError(t.where() + ": no rows to show");
  std::vector<double> time(rows);
  if (t.has(Field::kTime)) {
    time = t.read(Field::kTime).data;
  } else {
    for (size_t r = 0; r < rows; ++r) time[r] = double(r) * m.opt.timestep;
  }
  const double dt = rows > 1 ? (time.back() - time.front()) / double(rows - 1) : 0;
  const int step = decimation(dt, o.fps, o.all_rows);
  std::vector<size_t> shown;
  for (size_t r = 0; r < rows; r += size_t(step)) shown.push_back(r);

  // Mocap bodies follow the file's mocap_pos and mocap_quat (joco-simulate --record's, a
  // script's) where it has them with the model's shape; else they keep their initial places.
  const std::optional<Matrix> mocap_pos = mocap_dataset(m, t, "mocap_pos", 3, rows);
  const std::optional<Matrix> mocap_quat = mocap_dataset(m, t, "mocap_quat", 4, rows);

  Frames f;
  Data d(m);
  for (const size_t r : shown) {
    states.load(m, d, r);
    if (mocap_pos) std::copy_n(mocap_pos->row(r), 3 * m.nmocap, d.mocap_pos);
    if (mocap_quat) std::copy_n(mocap_quat->row(r), 4 * m.nmocap, d.mocap_quat);
    f.add_pose(m, d);
    f.time.back() = static_cast<float>(time[r]);
  }

  if (t.has_contacts()) {
    f.has_contacts = true;
    const std::vector<ContactRecord> contacts = t.read_contacts();
    size_t c = 0;  // contacts are in row order
    for (const size_t r : shown) {
      while (c < contacts.size() && contacts[c].row < int64_t(r)) ++c;
      uint32_t n = 0;
      for (; c < contacts.size() && contacts[c].row == int64_t(r); ++c, ++n) {
        const ContactRecord& k = contacts[c];
        f.contact_pos.insert(f.contact_pos.end(), k.pos, k.pos + 3);
        // The frame's rows are the normal and the tangents: the world force is their sum
        // weighted by the normal and tangent forces (on geom2: the normal points from geom1).
        for (int i = 0; i < 3; ++i) {
          f.contact_force.push_back(static_cast<float>(
              k.force[0] * k.frame[i] + k.force[1] * k.frame[3 + i] + k.force[2] * k.frame[6 + i]));
        }
      }
      f.ncon.push_back(n);
    }
  }

  for (const Field field : t.fields()) {
    if (field == Field::kTime) continue;
    const Matrix values = t.read(field, 0, rows, false);
    const std::string name = field_info(field).name;
    Frames::Plot p{name, dataset_columns(m, name, values.cols), {}};
    p.values.reserve(shown.size() * values.cols);
    for (const size_t r : shown) {
      p.values.insert(p.values.end(), values.row(r), values.row(r) + values.cols);
    }
    f.plots.push_back(std::move(p));
  }
  // The file's other datasets with a row per trajectory row (joco-simulate --record's Data
  // arrays, a script's own): numbered columns.
  for (const std::string& name : t.extra_names()) {
    std::vector<size_t> dims;
    Matrix values;
    try {
      values = t.read_extra(name, &dims);
    } catch (const InputError& e) {  // not numbers: nothing to plot
      spdlog::debug("{}: not plotted: {}", t.where(), e.what());
      continue;
    }
    if (dims.empty() || values.rows != rows || values.cols == 0) continue;
    Frames::Plot p{name, dataset_columns(m, name, values.cols), {}};
    for (const size_t r : shown) {
      p.values.insert(p.values.end(), values.row(r), values.row(r) + values.cols);
    }
    f.plots.push_back(std::move(p));
  }
  write_trajectory(w, t.group(), t.where(), step, f);
}

}  // namespace

int decimation(double dt, double fps, bool all_rows) {
  if (all_rows || !(dt > 0) || !(fps > 0)) return 1;
  const double per_frame = 1 / (fps * dt);  // rows in one frame's time
  return std::max(1, static_cast<int>(std::ceil(per_frame - 1e-9)));
}

std::vector<std::string> dataset_columns(const Model& m, const std::string& dataset, size_t ncols) {
  std::vector<std::string> out;
  const auto field = field_by_name(dataset);
  const FieldWidth width = field ? field_info(*field).width : FieldWidth::kScalar;
  if (field && width == FieldWidth::kNq && ncols == size_t(m.nq)) {
    for (int j = 0; j < m.njnt; ++j) {
      const std::string n = object_name(m, kObjJoint, j, "joint");
      if (m.jnt_type[j] == kJointFree) {
        for (const char* c : {".x", ".y", ".z"}) out.push_back(n + c);
      }
      if (m.jnt_type[j] == kJointFree || m.jnt_type[j] == kJointBall) {
        for (const char* c : {".qw", ".qx", ".qy", ".qz"}) out.push_back(n + c);
      } else {
        out.push_back(n);
      }
    }
  } else if (field && width == FieldWidth::kNv && ncols == size_t(m.nv)) {
    for (int j = 0; j < m.njnt; ++j) {
      const std::string n = object_name(m, kObjJoint, j, "joint");
      if (m.jnt_type[j] == kJointFree) {
        for (const char* c : {".vx", ".vy", ".vz"}) out.push_back(n + c);
      }
      if (m.jnt_type[j] == kJointFree || m.jnt_type[j] == kJointBall) {
        for (const char* c : {".wx", ".wy", ".wz"}) out.push_back(n + c);
      } else {
        out.push_back(n);
      }
    }
  } else if (field && width == FieldWidth::kNu && ncols == size_t(m.nu)) {
    for (int a = 0; a < m.nu; ++a) out.push_back(object_name(m, kObjActuator, a, "actuator"));
  } else if (field && width == FieldWidth::kNa && ncols == size_t(m.na)) {
    // The actuators with activations are the last na (MuJoCo 2.2.2's order).
    for (int a = m.nu - m.na; a < m.nu; ++a) {
      out.push_back(object_name(m, kObjActuator, a, "actuator"));
    }
  } else if (field && width == FieldWidth::kNsensordata && ncols == size_t(m.nsensordata)) {
    for (int s = 0; s < m.nsensor; ++s) {
      const std::string n = object_name(m, kObjSensor, s, "sensor");
      const int dim = m.sensor_dim[s];
      for (int i = 0; i < dim; ++i) out.push_back(dim == 1 ? n : fmt::format("{}[{}]", n, i));
    }
  } else if (field && width == FieldWidth::kNbody6 && ncols == size_t(6 * m.nbody)) {
    for (int b = 0; b < m.nbody; ++b) {
      const std::string n = object_name(m, kObjBody, b, "body");
      for (const char* c : {".fx", ".fy", ".fz", ".tx", ".ty", ".tz"}) out.push_back(n + c);
    }
  } else if (dataset == "fwdinv" && ncols == 2) {
    out = {"fwdinv.qfrc", "fwdinv.efc"};
  } else if (ncols == 1) {
    out.push_back(dataset);
  }
  if (out.size() != ncols) {
    out.clear();
    for (size_t i = 0; i < ncols; ++i) out.push_back(fmt::format("{}[{}]", dataset, i));
  }
  return out;
}

std::string replay_json(const Model& m, const std::string& model_path,
                        const std::optional<std::string>& trajectory, const ReplayOptions& o) {
  const std::string model_name = m.model_name().empty()
                                     ? std::filesystem::path(model_path).stem().string()
                                     : std::string(m.model_name());
  JsonWriter w;
  w.begin_object();
  w.key("version").value(1);
  member(w, "generator", std::string("joco-view ") + JOCO_VERSION);
  member(w, "title", trajectory ? model_name + " \u2014 " + *trajectory : model_name);
  write_model(w, m, o);
  w.key("trajectories").begin_array();
  if (!trajectory) {
    Data d(m);
    reset_data(m, d);
    write_model_state(w, m, d, "initial state");
    for (int k = 0; k < m.nkey; ++k) {
      reset_to_keyframe(m, d, k);
      const std::string_view key = m.name(kObjKey, k);
      write_model_state(w, m, d,
                        "keyframe " + (key.empty() ? std::to_string(k) : std::string(key)));
    }
  } else {
    const TrajectoryInput input = TrajectoryInput::open(*trajectory);
    std::vector<std::string> groups;
    if (o.rollouts.empty()) {
      groups = input.trajectory_groups();
    } else {
      const std::vector<std::string> present = input.rollout_groups();
      for (const int k : o.rollouts) {
        const std::string g = rollout_group(k);
        if (std::find(present.begin(), present.end(), g) == present.end()) {
          throw InputError(fmt::format("{}: no rollout {} (the file has {} rollout groups)",
                                       input.name(), k, present.size()));
        }
        groups.push_back(g);
      }
    }
    for (const std::string& g : groups) {
      Trajectory t = input.trajectory(g);
      write_file_trajectory(w, m, t, o);
    }
  }
  w.end_array();
  w.end_object();
  return w.text();
}

}  // namespace joco::tools::view
