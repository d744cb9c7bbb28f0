/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The test runner of the standalone build (cmake/standalone.cmake): ns-3's
// test-runner, with the module's test suites linked in.

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
