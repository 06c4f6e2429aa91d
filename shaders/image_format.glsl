// The storage-image format of a shader variant: CMake compiles each image shader once per format
// (-DIMAGE_CHANNELS=1, 2 or 4; with -DIMAGE_HALF, float16: 4 channels only, the float16 format every
// Vulkan device stores to and filters), because a storage image's format must be known when compiling.
#ifndef IMAGE_CHANNELS
#define IMAGE_CHANNELS 4
#endif
#if defined(IMAGE_HALF)
#define IMAGE_FORMAT rgba16f
#elif IMAGE_CHANNELS == 1
#define IMAGE_FORMAT r32f
#elif IMAGE_CHANNELS == 2
#define IMAGE_FORMAT rg32f
#else
#define IMAGE_FORMAT rgba32f
#endif
