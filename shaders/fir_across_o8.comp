#version 450
// fir along y or z register-blocked: 8 outputs a thread, so a tap's two loads serve twice the
// outputs (the plan's variant for large radii, fir_across.glsl with OUT 8).
#extension GL_GOOGLE_include_directive : require
#define OUT 8
#include "fir_across.glsl"
