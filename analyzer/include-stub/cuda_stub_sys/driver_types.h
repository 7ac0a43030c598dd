#pragma once
#include "../warplint_cuda.h"
