// warplint's bundled stand-in for <cub/iterator/arg_index_input_iterator.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
