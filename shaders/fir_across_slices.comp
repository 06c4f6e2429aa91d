#version 450
// The exact Gaussian (fir) along y of a stack of slices, each with its own kernel (fir_across.glsl):
// a batch with a sigma per sample in one dispatch.
#extension GL_GOOGLE_include_directive : require
#define SLICED
#include "fir_across.glsl"
