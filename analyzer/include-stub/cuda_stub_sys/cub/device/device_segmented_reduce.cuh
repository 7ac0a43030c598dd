// warplint's bundled stand-in for <cub/device/device_segmented_reduce.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
