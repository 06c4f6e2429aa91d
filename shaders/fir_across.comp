#version 450
// The exact Gaussian (fir) along y or z, one kernel for the whole image (fir_across.glsl).
#extension GL_GOOGLE_include_directive : require
#include "fir_across.glsl"
