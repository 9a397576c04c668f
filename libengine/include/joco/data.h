// The workspace of one simulation: state, inputs, intermediate results and outputs with MuJoCo's
// names (data_fields.h), plus a stack for temporaries. Everything is allocated once, when the Data
// is made; the pipeline functions never touch the heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "joco/constants.h"
#include "joco/data_fields.h"
#include "joco/field.h"
#include "joco/model.h"
#include "joco/random.h"

namespace joco {

// One contact found by collision detection.
struct Contact {
  // set by the narrow phase
  double dist = 0;       // distance between nearest points; negative: penetration
  double pos[3] = {};    // contact point, midway between the surfaces
  double frame[9] = {};  // contact frame, rows: normal, first and second tangent
  // set when the contact is added
  double includemargin = 0;  // included in the constraints when dist < includemargin
  double friction[5] = {};   // tangent1, tangent2, spin, roll1, roll2
  double solref[kNREF] = {};
  double solimp[kNIMP] = {};
  // set by the constraint stages
  double mu = 0;      // friction of the regularised cone
  double H[36] = {};  // cone Hessian (elliptic cones)
  int dim = 0;        // 1, 3, 4 or 6
  int geom1 = -1;
  int geom2 = -1;
  int exclude = 0;       // 0: included, 1: in gap
  int efc_address = -1;  // first constraint row; -1: not included
};

struct WarningStat {
  int lastinfo = 0;  // info from the last warning
  int number = 0;    // how many times the warning was raised
};

struct TimerStat {
  double duration = 0;  // cumulative seconds (measured runs, plus the mean for each other run)
  int number = 0;       // how many times the timer ran
  // the runs measured (see DataInfo::timer_period): their count, total and mean seconds
  int measured = 0;
  double measured_duration = 0;
  double measured_mean = 0;
};

struct SolverStat {
  double improvement = 0;  // cost reduction, scaled by 1/trace(M(qpos0))
  double gradient = 0;     // gradient norm (primal solvers), scaled
  double lineslope = 0;    // slope in the line search
  int nactive = 0;         // active constraints
  int nchange = 0;         // constraint state changes
  int neval = 0;           // cost evaluations in the line search
  int nupdate = 0;         // Cholesky updates in the line search
};

// The plain-data header of Data: sizes, statistics and the variable sizes of the current step.
// One slot of Data::separating_axes: a unit direction along which geom1 and geom2 (geom1 <
// geom2 as the collision tests them) were apart, or geom1 = -1 for an empty slot.
struct SeparatingAxis {
  int geom1 = -1;
  int geom2 = -1;
  int vertex1 = -1;  // where the mesh hill climbs along dir ended (-1: not a mesh, or not yet)
  int vertex2 = -1;
  double dir[3] = {};
};
inline constexpr int kSeparatingAxisSlots = 256;  // a power of two

// One slot of Data::climb_starts: for the convex pair geom1 < geom2 (geom1 = -1: an empty slot),
// where the mesh hill climb of each of MPR's support calls ended at the pair's last test, per
// object (graph vertices; 0 also for none, the climb's own start).
inline constexpr int kClimbStartCalls = 32;  // the calls remembered: MPR's first ones
struct ClimbStarts {
  int geom1 = -1;
  int geom2 = -1;
  int vertex[2][kClimbStartCalls] = {};
};
// Slots for a model with mesh hull graphs (a power of two), none for others.
inline constexpr int kClimbStartSlots = 64;

struct DataInfo {
  // sizes fixed when made
  int nstack = 0;  // doubles in the stack
  int pstack = 0;  // first free double of the stack
  // memory use
  int maxuse_stack = 0;
  int maxuse_con = 0;
  int maxuse_efc = 0;
  // diagnostics
  WarningStat warning[kNWarning];
  TimerStat timer[kNTimer];
  // The stage timers run unless this is false. A measured run reads the processor's time-stamp
  // counter at each stage boundary, 12 times a step: 20-70 ns each on a virtual machine, which is
  // more than a whole step of a one-body model and a tenth of arm26's (joco-profile
  // --timer-overhead measures it). So only one run in timer_period of each outermost timer (step,
  // forward, inverse, with everything nested in it) is measured; every run is counted, and each
  // run not measured adds the mean of the measured ones to `duration`, an estimate of the total
  // (1: measure every run). Left alone by reset_data.
  bool timers_enabled = true;
  int timer_period = 8;
  int timer_depth = 0;           // timed scopes open (timer.h)
  bool timer_measuring = false;  // whether the outermost open one is measured
  SolverStat solver[kNSOLVER];
  int solver_iter = 0;
  int solver_nnz = 0;
  double solver_fwdinv[2] = {};
  // variable sizes
  int ne = 0;    // equality constraint rows
  int nf = 0;    // friction constraint rows
  int nefc = 0;  // all constraint rows
  int ncon = 0;  // contacts
  // global properties
  double time = 0;
  double energy[2] = {};  // potential, kinetic
  // The sensor-noise generator (MuJoCo draws from the C library's rand()). It starts where MuJoCo's
  // compiler leaves rand(), srand(123), for models without random texture marks that do not enable
  // sensor noise (MuJoCo's compiler evaluates the sensors once, drawing their noise, when they
  // do). reset_data leaves it alone, as mj_resetData leaves rand(). Reseed: noise_random.reseed(s).
  static constexpr uint32_t kNoiseSeed = 123;
  GlibcRandom noise_random{kNoiseSeed};
};

class Data : public DataInfo {
 public:
  // nstack doubles for temporaries (see StackFrame), after the arrays; reset_data and copies leave
  // it alone, so only the part the pipeline uses is ever mapped.
  double* stack = nullptr;
  Contact* contact = nullptr;  // nconmax contacts
  // The sparse Newton solver's memory from one solve to the next: its Hessian's pattern and the
  // symbolic factorisation, reused while the constraint rows couple the same dofs
  // (solver/hessian_pattern.h). reset_data clears it.
  int* hessian_cache = nullptr;
  // Axes that separated convex geom pairs at their last test, kSeparatingAxisSlots of them, a slot
  // per pair by hash (collision/convex.cc): tried before MPR, which they spare whenever they still
  // separate (what MPR would then find is no contact). Never a result: a step computes the same
  // with them or without. reset_data clears them.
  SeparatingAxis* separating_axes = nullptr;
  // For convex pairs in contact, where the mesh hill climbs of each of MPR's support calls ended at
  // their last test, a slot per pair by hash (collision/convex.cc), climb_start_slots of them (0
  // for a model without mesh hull graphs): a resting contact's MPR asks the same directions step
  // after step, so the climbs start at their ends. Never a result: a climb ends at the same vertex
  // from any start. reset_data marks every slot empty.
  ClimbStarts* climb_starts = nullptr;
  int climb_start_slots = 0;

#define JOCO_DECLARE_ARRAY(type, name, rows, cols) type* name = nullptr;
  JOCO_DATA_ARRAYS(JOCO_DECLARE_ARRAY)
#undef JOCO_DECLARE_ARRAY

  Data() = default;
  // Allocates every array and the stack for the model (one zeroed allocation, mapped as it is
  // used) and resets it (reset_data).
  explicit Data(const Model& m);
  Data(const Data& other);
  Data& operator=(const Data& other);
  Data(Data&& other) noexcept;
  Data& operator=(Data&& other) noexcept;
  ~Data();

  // Every array field with its data pointer, in table order (contacts and stack excluded).
  std::vector<ArrayField> arrays() const;
  // Bytes of the arrays and contacts, before the stack.
  size_t nbuffer() const { return buffer_bytes_; }
  // The model sizes this Data was made for.
  const ModelSizes& sizes() const { return sizes_; }

 private:
  void allocate();
  void allocate_buffer();
  void release();
  void take(Data& other) noexcept;

  ModelSizes sizes_;
  void* allocation_ = nullptr;  // calloc'd or mapped (data.cc); buffer_ is in it, aligned
  void* buffer_ = nullptr;
  size_t buffer_bytes_ = 0;
};

// Every array field of a Data for a model of these sizes (data pointers null).
std::vector<ArrayField> data_array_fields(const ModelSizes& sizes);

// The bytes a Data for a model of these sizes allocates, with the parts the <size> element sets.
struct DataBytes {
  double total = 0;
  double constraint_rows = 0;  // the efc_ arrays: njmax rows (efc_AR is njmax x njmax)
  double contacts = 0;         // nconmax
  double stack = 0;            // nstack
  // "a Data of 2.1 GiB (njmax = 8000: 0.8 GiB of constraint rows, ...)"
  std::string describe(const ModelSizes& sizes) const;
};
DataBytes data_bytes(const ModelSizes& sizes);

Data make_data(const Model& m);

// Refuses a Data made for another model (Pinocchio's model.check(data)): throws InputError naming
// the first size that differs. Every public entry point that takes a Model and a Data (step,
// forward, inverse, the derivatives, reset, the state functions) calls it once: the pipeline
// below them trusts that d's arrays have m's sizes. One comparison of the sizes' bytes.
void check_data(const Model& m, const Data& d);

// Back to the model's initial state: qpos = qpos0, mocap at its body frames, every array zero
// (the stack, which holds no state, left as it is), statistics and warnings cleared.
void reset_data(const Model& m, Data& d);

// What reset_data sets that a pipeline call reads, without clearing the rest of the arrays: the
// state and inputs (joco/state.h's components: qpos = qpos0, mocap at its body frames, the rest
// zero), qacc (the input of inverse), userdata, time, the counts, warnings and timers, and the
// Newton solver's cache (emptied). The per-iteration solver statistics (d.solver, 40 kB) are left
// as they are: a solve writes those of its iterations, 0 to solver_iter - 1, and nothing reads the
// others (as after a step). Every other array is a result that step, forward, inverse and
// the derivatives write before they read (data_test.cc's ResetState tests prove it for every test
// model), so it may hold a previous call's values: its cost is that of the state, not of the Data's
// size. For tools that put one row after another into a Data.
void reset_state(const Model& m, Data& d);

// The initial state of keyframe `key`: reset_data, then the keyframe's time, qpos, qvel, act, ctrl
// and mocap poses. Throws InputError when key is out of range.
void reset_to_keyframe(const Model& m, Data& d, int key);

// Records a warning: counts it, remembers its info, and logs the first occurrence.
void raise_warning(Data& d, Warning warning, int info);

// Temporaries on the Data's stack, freed when the frame ends. Allocation past the end of the stack
// throws RuntimeError (the model's nstack is too small), never touches the heap.
class StackFrame {
 public:
  explicit StackFrame(Data& d) : d_(d), saved_(d.pstack) {}
  ~StackFrame() { d_.pstack = saved_; }
  StackFrame(const StackFrame&) = delete;
  StackFrame& operator=(const StackFrame&) = delete;

  double* doubles(int64_t n) { return static_cast<double*>(take(n * int64_t{sizeof(double)})); }
  int* ints(int64_t n) { return static_cast<int*>(take(n * int64_t{sizeof(int)})); }
  template <class T>
  T* array(int64_t n) {
    static_assert(alignof(T) <= alignof(double));
    return static_cast<T*>(take(n * int64_t{sizeof(T)}));
  }

 private:
  // Inline: the pipeline takes a few temporaries per stage, and on small models a call each was
  // 2% of a step.
  void* take(int64_t bytes) {
    const int64_t doubles = (bytes + int64_t{sizeof(double)} - 1) / int64_t{sizeof(double)};
    if (doubles < 0 || d_.pstack + doubles > d_.nstack) overflow(doubles);
    void* p = d_.stack + d_.pstack;
    d_.pstack += static_cast<int>(doubles);
    if (d_.pstack > d_.maxuse_stack) d_.maxuse_stack = d_.pstack;
    return p;
  }
  [[noreturn]] void overflow(int64_t doubles) const;

  Data& d_;
  int saved_;
};

}  // namespace joco
