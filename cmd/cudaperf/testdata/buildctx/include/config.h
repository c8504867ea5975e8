#pragma once
// The block size lives in a header of another folder: only -I finds it.
#define BLOCK 100
