// warplint's bundled stand-in for <cub/device/device_radix_sort.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
