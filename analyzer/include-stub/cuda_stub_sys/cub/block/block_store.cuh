// warplint's bundled stand-in for <cub/block/block_store.cuh>: see <cub/cub.cuh>.
#pragma once
#include "../cub.cuh"
