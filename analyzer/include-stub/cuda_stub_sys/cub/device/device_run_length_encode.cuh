// warplint's bundled stand-in for <cub/device/device_run_length_encode.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
