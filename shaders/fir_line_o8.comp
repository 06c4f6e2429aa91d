#version 450
// variants: c1=-DCH=1 c2=-DCH=2 c3=-DCH=3 c4=-DCH=4
// fir along x register-blocked: 8 outputs a thread, so a tap's two shared-memory reads serve twice
// the outputs (the plan's variant for large radii, fir_line.glsl with OUT 8).
#extension GL_GOOGLE_include_directive : require
#define OUT 8
#include "fir_line.glsl"
