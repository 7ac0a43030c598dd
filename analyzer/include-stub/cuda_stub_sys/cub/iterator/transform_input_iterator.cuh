// warplint's bundled stand-in for <cub/iterator/transform_input_iterator.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
