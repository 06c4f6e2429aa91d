#version 450
// A buffer copied 16 bytes a thread: the bandwidth a compute pass that reads and writes each value
// once can reach (the benchmark's floor, bench/gpu_floor.cpp), and the widest loads a shader has.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uvec4 dst[]; };

layout(push_constant) uniform Params {
  uint count;  // 16-byte blocks
} p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i < p.count) dst[i] = src[i];
}
