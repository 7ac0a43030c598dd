// warplint's bundled stand-in for <cub/block/block_histogram.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
