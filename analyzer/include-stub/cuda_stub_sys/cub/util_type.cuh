// warplint's bundled stand-in for <cub/util_type.cuh>: see <cub/cub.cuh>.
#pragma once
#include "cub.cuh"
