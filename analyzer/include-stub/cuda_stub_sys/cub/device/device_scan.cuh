// warplint's bundled stand-in for <cub/device/device_scan.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
