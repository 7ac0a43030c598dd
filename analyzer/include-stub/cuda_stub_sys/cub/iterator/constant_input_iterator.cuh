// warplint's bundled stand-in for <cub/iterator/constant_input_iterator.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
