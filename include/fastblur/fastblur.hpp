#pragma once
/// @file
/// Umbrella header: everything public in fastblur.
#include "fastblur/analysis.hpp"
#include "fastblur/blur.hpp"
#include "fastblur/codegen.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/plan.hpp"
#include "fastblur/device.hpp"
#include "fastblur/kernel_iir.hpp"
#include "fastblur/kernel_sliding_dct.hpp"
#include "fastblur/kernel_dual_kawase.hpp"
#include "fastblur/kernel_mip_poisson.hpp"
#include "fastblur/reference.hpp"
#include "fastblur/version.hpp"
#include "fastblur/view.hpp"
