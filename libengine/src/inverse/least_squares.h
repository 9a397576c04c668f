// The solve of ControlEstimator's least-squares problem written out in plain loops, with the bits
// of Eigen's own code: at the sizes of a model's actuators (tens), Eigen's generic expression
// machinery costs several times the arithmetic per Householder reflector (the humanoid's control
// estimate spent more than half of its instructions there). Each function does Eigen's operations
// in Eigen's order for the SSE2 packets of a generic x86-64 build (kEigenOrder says whether this
// build is one); least_squares_test.cc checks the bits against Eigen's on many matrices.
#pragma once

#include <Eigen/Dense>

namespace joco::detail {

// Whether the functions below give Eigen's bits in this build: Eigen's dot products and matrix-
// vector products are summed in packets of two doubles (SSE2, no FMA).
#if defined(EIGEN_VECTORIZE_SSE2) && !defined(EIGEN_VECTORIZE_AVX) && !defined(EIGEN_VECTORIZE_FMA)
inline constexpr bool kEigenOrder = true;
#else
inline constexpr bool kEigenOrder = false;
#endif

// x = cod.solve(rhs) for a decomposition of full column rank (cod.rank() == cod.cols()), the
// same bits; c (cod.rows() values) and y (cod.cols()) are scratch.
void solve_full_column_rank(const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod,
                            const double* rhs, double* c, double* y, double* x);

// r = rhs - B x with the bits of Eigen's `r.noalias() = rhs - B * x` for a B of two rows or more.
void residual(const Eigen::MatrixXd& B, const double* rhs, const double* x, double* r);

}  // namespace joco::detail
