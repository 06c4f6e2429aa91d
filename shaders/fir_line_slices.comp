#version 450
// variants: c1=-DCH=1,-DSLICED c2=-DCH=2,-DSLICED c3=-DCH=3,-DSLICED c4=-DCH=4,-DSLICED
// The exact Gaussian (fir) along x of a stack of slices, each with its own kernel (fir_line.glsl):
// a batch with a sigma per sample in one dispatch.
#extension GL_GOOGLE_include_directive : require
#include "fir_line.glsl"
