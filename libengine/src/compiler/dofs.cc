// Compiler stages (compiler/compiler.h): joint and dof addresses, dof parents and the sparsity of
// M.
#include "compiler/compiler.h"

namespace joco::compiler {

void Compiler::build_dofs() {
  int dof = 0, qpos = 0;
  size_t joint = 0;
  for (size_t i = 0; i < bodies_.size(); ++i) {
    FlatBody& b = bodies_[i];
    b.first_joint = static_cast<int>(joint);
    b.first_dof = dof;
    int nfree = 0;
    for (const JointSpec& j : b.spec->joints) {
      if (i == 0) fail(j.origin, j.name, "the world body cannot have joints");
      if (j.type == kJointFree) {
        ++nfree;
        if (b.parent != 0)
          fail(j.origin, j.name, "a free joint can only be used on a child of the world");
      }
      jnt_qposadr_.push_back(qpos);
      jnt_dofadr_.push_back(dof);
      qpos += joint_nq(j.type);
      dof += joint_nv(j.type);
      ++joint;
    }
    if (nfree && b.spec->joints.size() > 1) {
      fail(b.spec->origin, b.spec->name, "a free joint must be the only joint of its body");
    }
    if (b.spec->mocap && !b.spec->joints.empty()) {
      fail(b.spec->origin, b.spec->name, "a mocap body cannot have joints");
    }
    b.ndof = dof - b.first_dof;
    if (b.ndof > 6)
      fail(b.spec->origin, b.spec->name, "more than 6 degrees of freedom in one body");
  }
  nq_ = qpos;
  nv_ = dof;
  // dof tree: a dof's parent is the previous dof of its body, or the last dof of the nearest
  // ancestor that has dofs.
  dof_parent_.assign(static_cast<size_t>(nv_), -1);
  dof_body_.assign(static_cast<size_t>(nv_), 0);
  dof_joint_.assign(static_cast<size_t>(nv_), 0);
  last_dof_.assign(bodies_.size(), -1);
  for (size_t i = 1; i < bodies_.size(); ++i) {
    const FlatBody& b = bodies_[i];
    int previous = last_dof_[static_cast<size_t>(b.parent)];
    for (int k = 0; k < b.ndof; ++k) {
      const int d = b.first_dof + k;
      dof_parent_[static_cast<size_t>(d)] = previous;
      dof_body_[static_cast<size_t>(d)] = static_cast<int>(i);
      previous = d;
    }
    last_dof_[i] = previous;
  }
  for (size_t j = 0; j < joints_.size(); ++j) {
    for (int k = 0; k < joint_nv(joints_[j].first->type); ++k) {
      dof_joint_[static_cast<size_t>(jnt_dofadr_[j] + k)] = static_cast<int>(j);
    }
  }
  nM_ = 0;
  for (int d = 0; d < nv_; ++d) {
    dof_madr_.push_back(nM_);
    for (int p = d; p >= 0; p = dof_parent_[static_cast<size_t>(p)]) ++nM_;
  }
  // nD: non-zeros of the dof-dof "same branch" pattern (M's pattern, both triangles).
  nD_ = 0;
  for (int d = 0; d < nv_; ++d) {
    int depth = 0;
    for (int p = d; p >= 0; p = dof_parent_[static_cast<size_t>(p)]) ++depth;
    nD_ += 2 * depth - 1;
  }
}

}  // namespace joco::compiler
