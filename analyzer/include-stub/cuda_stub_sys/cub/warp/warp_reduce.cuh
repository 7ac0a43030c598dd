// warplint's bundled stand-in for <cub/warp/warp_reduce.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
