// Tendon lengths and moment arms. A spatial tendon's length is a sum of straight segments between
// points attached to bodies (sites, and tangent points attached to the wrapped geom's body) plus
// arcs on wrapped geoms; the arcs do not change to first order when the geom moves (the path is
// the shortest one), so the moment arms come from the straight segments alone.
#include "joco/tendon.h"

#include <algorithm>

#include "joco/jacobian.h"
#include "math/vec.h"
#include "tendon/wrap.h"

namespace joco {

using namespace math;

namespace {

// Dofs touched by the current tendon row, for its sparsity pattern.
struct RowPattern {
  int* mark;  // nv flags
  int* list;  // touched dofs
  int count = 0;

  void touch(int dof) {
    if (!mark[dof]) {
      mark[dof] = 1;
      list[count++] = dof;
    }
  }
};

// J += scale * the gradient of |b - a|, for a attached to body_a and b to body_b. On the dofs that
// move both points only their relative motion counts: w x (b - a).
void add_segment(const Model& m, const Data& d, double* J, RowPattern& pattern, const double* a,
                 int body_a, const double* b, int body_b, double scale) {
  double dir[3];
  sub3(dir, b, a);
  normalize3(dir);
  scale3(dir, dir, scale);
  const double* com_a = d.subtree_com + 3 * m.body_rootid[body_a];
  const double* com_b = d.subtree_com + 3 * m.body_rootid[body_b];
  double offset_a[3], offset_b[3], ab[3];
  sub3(offset_a, a, com_a);
  sub3(offset_b, b, com_b);
  sub3(ab, b, a);
  // The dofs moving each point, walked down their dof_parentid chains together (a parent's index
  // is below its child's), so that the dofs moving both are met at once.
  auto point_velocity = [&](int dof, const double* offset, double* v) {
    const double* cdof = d.cdof + 6 * dof;
    cross3(v, cdof, offset);
    v[0] += cdof[3];
    v[1] += cdof[4];
    v[2] += cdof[5];
  };
  const int* parent = m.dof_parentid;
  int ia = last_dof(m, body_a), ib = last_dof(m, body_b);
  while (ia >= 0 || ib >= 0) {
    double v[3];
    if (ia > ib) {
      point_velocity(ia, offset_a, v);
      J[ia] -= dot3(dir, v);
      pattern.touch(ia);
      ia = parent[ia];
    } else if (ib > ia) {
      point_velocity(ib, offset_b, v);
      J[ib] += dot3(dir, v);
      pattern.touch(ib);
      ib = parent[ib];
    } else {
      cross3(v, d.cdof + 6 * ia, ab);
      J[ia] += dot3(dir, v);
      pattern.touch(ia);
      ia = parent[ia];
      ib = parent[ib];
    }
  }
}

}  // namespace

void tendon(const Model& m, Data& d) {
  const int nv = m.nv;
  StackFrame frame(d);
  RowPattern pattern{frame.ints(nv), frame.ints(nv)};
  for (int i = 0; i < nv; ++i) pattern.mark[i] = 0;

  int npoint = 0;  // wrap points so far
  int nnz = 0;     // sparse entries so far
  for (int t = 0; t < m.ntendon; ++t) {
    double* J = d.ten_J + static_cast<size_t>(t) * nv;
    for (int i = 0; i < nv; ++i) J[i] = 0;
    pattern.count = 0;
    d.ten_wrapadr[t] = npoint;
    const int first_point = npoint;
    const int adr = m.tendon_adr[t], num = m.tendon_num[t];
    double length = 0;

    auto add_point = [&](int obj, const double* pos) {
      d.wrap_obj[npoint] = obj;
      double* x = d.wrap_xpos + 3 * npoint;
      if (pos) {
        copy3(x, pos);
      } else {
        zero3(x);
      }
      ++npoint;
    };

    if (num > 0 && m.wrap_type[adr] == kWrapJoint) {
      for (int w = adr; w < adr + num; ++w) {
        const int joint = m.wrap_objid[w];
        const double coef = m.wrap_prm[w];
        const int dof = m.jnt_dofadr[joint];
        length += coef * d.qpos[m.jnt_qposadr[joint]];
        J[dof] += coef;
        pattern.touch(dof);
      }
    } else {
      double divisor = 1;
      for (int j = 0; j < num;) {
        const int w = adr + j;
        if (m.wrap_type[w] == kWrapPulley) {
          divisor = m.wrap_prm[w];
          add_point(-2, nullptr);
          ++j;
          continue;
        }
        const int site0 = m.wrap_objid[w];
        const double* p0 = d.site_xpos + 3 * site0;
        const int body0 = m.site_bodyid[site0];
        add_point(-1, p0);
        // The last site of a branch ends it.
        if (j + 1 >= num || m.wrap_type[w + 1] == kWrapPulley) {
          ++j;
          continue;
        }
        const double scale = 1 / divisor;
        if (m.wrap_type[w + 1] == kWrapSite) {
          const int site1 = m.wrap_objid[w + 1];
          const double* p1 = d.site_xpos + 3 * site1;
          length += dist3(p0, p1) * scale;
          add_segment(m, d, J, pattern, p0, body0, p1, m.site_bodyid[site1], scale);
          ++j;
          continue;
        }
        // site, geom, site
        const int geom = m.wrap_objid[w + 1];
        const int side_site = static_cast<int>(m.wrap_prm[w + 1]);
        const int site1 = m.wrap_objid[w + 2];
        const double* p1 = d.site_xpos + 3 * site1;
        const int body1 = m.site_bodyid[site1];
        double t0[3], t1[3];
        const double arc =
            wrap::geom(p0, p1, d.geom_xpos + 3 * geom, d.geom_xmat + 9 * geom,
                       m.geom_size[3 * geom], m.wrap_type[w + 1] == kWrapSphere,
                       side_site >= 0 ? d.site_xpos + 3 * side_site : nullptr, t0, t1);
        if (arc < 0) {
          length += dist3(p0, p1) * scale;
          add_segment(m, d, J, pattern, p0, body0, p1, body1, scale);
        } else {
          const int geom_body = m.geom_bodyid[geom];
          add_point(geom, t0);
          add_point(geom, t1);
          length += (dist3(p0, t0) + arc + dist3(t1, p1)) * scale;
          add_segment(m, d, J, pattern, p0, body0, t0, geom_body, scale);
          add_segment(m, d, J, pattern, t1, geom_body, p1, body1, scale);
        }
        j += 2;
      }
    }

    d.ten_length[t] = length;
    d.ten_wrapnum[t] = npoint - first_point;
    // The sparsity pattern, increasing, packed after the previous rows.
    std::sort(pattern.list, pattern.list + pattern.count);
    d.ten_J_rownnz[t] = pattern.count;
    d.ten_J_rowadr[t] = nnz;
    for (int k = 0; k < pattern.count; ++k) {
      d.ten_J_colind[nnz + k] = pattern.list[k];
      pattern.mark[pattern.list[k]] = 0;
    }
    nnz += pattern.count;
  }
}

void tendon_velocity(const Model& m, Data& d) {
  const int nv = m.nv;
  for (int t = 0; t < m.ntendon; ++t) {
    const double* J = d.ten_J + static_cast<size_t>(t) * nv;
    const int* colind = d.ten_J_colind + d.ten_J_rowadr[t];
    double v = 0;
    for (int k = 0; k < d.ten_J_rownnz[t]; ++k) v += J[colind[k]] * d.qvel[colind[k]];
    d.ten_velocity[t] = v;
  }
}

}  // namespace joco
