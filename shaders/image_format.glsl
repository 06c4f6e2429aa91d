// The storage-image format of a shader variant: CMake compiles each image shader once per format
// (-DIMAGE_CHANNELS=1, 2 or 4), because a storage image's format must be known when compiling.
#ifndef IMAGE_CHANNELS
#define IMAGE_CHANNELS 4
#endif
#if IMAGE_CHANNELS == 1
#define IMAGE_FORMAT r32f
#elif IMAGE_CHANNELS == 2
#define IMAGE_FORMAT rg32f
#else
#define IMAGE_FORMAT rgba32f
#endif
