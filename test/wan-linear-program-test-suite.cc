/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-linear-program.h"

using namespace ns3;

/**
 * @ingroup wan-training-tests
 * @brief Linear programs solvable on paper.
 */
class LinearProgramOnPaperTestCase : public WanTestCase
{
  public:
    LinearProgramOnPaperTestCase()
        : WanTestCase("linear programs solved on paper")
    {
    }

  private:
    void DoCheck() override
    {
        // min x + y  s.t.  x + 2y >= 4,  3x + y >= 6,  x, y >= 0.
        // Both constraints bind: x = 8/5, y = 6/5, objective 14/5.
        WanLinearProgram lp;
        auto x = lp.AddVariable("x", 0, WanLinearProgram::kInf, 1);
        auto y = lp.AddVariable("y", 0, WanLinearProgram::kInf, 1);
        lp.AddConstraint({{x, 1}, {y, 2}}, 4, WanLinearProgram::kInf);
        lp.AddConstraint({{x, 3}, {y, 1}}, 6, WanLinearProgram::kInf);
        NS_TEST_ASSERT_MSG_EQ(lp.Minimize(), WanLinearProgram::OPTIMAL, "solvable");
        NS_TEST_EXPECT_MSG_EQ_TOL(lp.GetValue(x), 1.6, 1e-9, "x = 8/5");
        NS_TEST_EXPECT_MSG_EQ_TOL(lp.GetValue(y), 1.2, 1e-9, "y = 6/5");
        NS_TEST_EXPECT_MSG_EQ_TOL(lp.GetObjective(), 2.8, 1e-9, "objective 14/5");

        // min x  s.t.  x - y = 3,  1 <= y <= 5: x = 4; raising y's floor to 2: x = 5.
        WanLinearProgram eq;
        auto a = eq.AddVariable("a", -WanLinearProgram::kInf, WanLinearProgram::kInf, 1);
        auto b = eq.AddVariable("b", 1, 5);
        eq.AddConstraint({{a, 1}, {b, -1}}, 3, 3);
        NS_TEST_ASSERT_MSG_EQ(eq.Minimize(), WanLinearProgram::OPTIMAL, "solvable");
        NS_TEST_EXPECT_MSG_EQ_TOL(eq.GetValue(a), 4, 1e-9, "a = 3 + 1");
        eq.SetBounds(b, 2, 5);
        NS_TEST_ASSERT_MSG_EQ(eq.Minimize(), WanLinearProgram::OPTIMAL, "still solvable");
        NS_TEST_EXPECT_MSG_EQ_TOL(eq.GetValue(a), 5, 1e-9, "a = 3 + 2");
        // Maximise a instead (minimise -a): b at its ceiling.
        eq.ClearCosts();
        eq.SetCost(a, -1);
        NS_TEST_ASSERT_MSG_EQ(eq.Minimize(), WanLinearProgram::OPTIMAL, "solvable");
        NS_TEST_EXPECT_MSG_EQ_TOL(eq.GetValue(a), 8, 1e-9, "a = 3 + 5");
        NS_TEST_EXPECT_MSG_EQ(eq.GetNVariables(), 2, "two variables");
        NS_TEST_EXPECT_MSG_EQ(eq.GetNConstraints(), 1, "one constraint");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Infeasible and unbounded programs are reported as such.
 */
class LinearProgramStatusTestCase : public WanTestCase
{
  public:
    LinearProgramStatusTestCase()
        : WanTestCase("infeasible and unbounded programs")
    {
    }

  private:
    void DoCheck() override
    {
        WanLinearProgram infeasible;
        auto x = infeasible.AddVariable("x", 0, 1, 1);
        infeasible.AddConstraint({{x, 1}}, 2, WanLinearProgram::kInf);
        NS_TEST_EXPECT_MSG_EQ(infeasible.Minimize(),
                              WanLinearProgram::INFEASIBLE,
                              "x <= 1, x >= 2");

        WanLinearProgram unbounded;
        auto y = unbounded.AddVariable("y", 0, WanLinearProgram::kInf, -1);
        unbounded.AddConstraint({{y, 1}}, 1, WanLinearProgram::kInf);
        NS_TEST_EXPECT_MSG_EQ(unbounded.Minimize(), WanLinearProgram::UNBOUNDED, "min -y, y >= 1");

        bool threw = false;
        try
        {
            unbounded.AddVariable("z", 2, 1);
        }
        catch (const std::invalid_argument&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "lower bound above upper bound is refused");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-linear-program test suite.
 */
class LinearProgramTestSuite : public TestSuite
{
  public:
    LinearProgramTestSuite()
        : TestSuite("wan-training-linear-program", Type::UNIT)
    {
        AddTestCase(new LinearProgramOnPaperTestCase);
        AddTestCase(new LinearProgramStatusTestCase);
    }
};

/// The suite's instance.
static LinearProgramTestSuite g_linearProgramTestSuite;
