// warplint's bundled stand-in for <cub/device/device_select.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
