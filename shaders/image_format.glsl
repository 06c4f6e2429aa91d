// The storage-image format of a shader variant: CMake compiles each image shader once per format
// (-DIMAGE_CHANNELS=1, 2 or 4; with -DIMAGE_HALF, float16: 4 channels only, the float16 format every
// Vulkan device stores to and filters; with -DIMAGE_UNORM8, 8-bit unsigned normalized: 4 channels
// of an 8-bit image), because a storage image's format must be known when compiling.
#ifndef IMAGE_CHANNELS
#define IMAGE_CHANNELS 4
#endif
// A normalized format holds value / IMAGE_SCALE (8-bit values 0 .. 255 as 0 .. 1): what is stored
// into the first image is divided by it, what the last pass writes to a buffer multiplied.
#if defined(IMAGE_UNORM8)
const float IMAGE_SCALE = 255.0;
#else
const float IMAGE_SCALE = 1.0;
#endif
#if defined(IMAGE_UNORM8)
#define IMAGE_FORMAT rgba8
#elif defined(IMAGE_HALF)
#define IMAGE_FORMAT rgba16f
#elif IMAGE_CHANNELS == 1
#define IMAGE_FORMAT r32f
#elif IMAGE_CHANNELS == 2
#define IMAGE_FORMAT rg32f
#else
#define IMAGE_FORMAT rgba32f
#endif
