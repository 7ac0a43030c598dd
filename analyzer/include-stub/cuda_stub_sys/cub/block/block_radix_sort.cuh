// warplint's bundled stand-in for <cub/block/block_radix_sort.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
