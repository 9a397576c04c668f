// The nesting limit every MJCF file meets, shared by the MJCF reader and the URDF converter so that
// the converter never writes MJCF the compiler then refuses (issue 19). MJCF nests bodies as XML
// elements; tinyxml2, which joco and MuJoCo 2.2.2 read XML with, refuses elements nested deeper
// than TINYXML2_MAX_ELEMENT_DEPTH (100) levels, the document itself counting as one, a constant of
// the library's build.
#pragma once

#include <tinyxml2.h>

namespace joco {

// Levels of XML elements, <mujoco> being the first (99).
inline constexpr int kMaxXmlDepth = TINYXML2_MAX_ELEMENT_DEPTH - 1;
// Levels of <body>: <mujoco>, <worldbody> and the innermost body's own children take three (96).
inline constexpr int kMaxBodyDepth = kMaxXmlDepth - 3;

}  // namespace joco
