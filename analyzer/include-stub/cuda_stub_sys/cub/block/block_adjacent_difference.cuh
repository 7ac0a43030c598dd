// warplint's bundled stand-in for <cub/block/block_adjacent_difference.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
