#version 450
// variants: c1=-DCH=1 c2=-DCH=2 c3=-DCH=3 c4=-DCH=4
// The exact Gaussian (fir) along x, one kernel for the whole image (fir_line.glsl).
#extension GL_GOOGLE_include_directive : require
#include "fir_line.glsl"
