/*
 * C++ names for the demangling tests, with known counts: virtual calls
 * through a base class, templates, a lambda given to std::sort, an
 * operator, a name with an [abi:cxx11] tag, exceptions, and two threads
 * (one std::thread, one pthread_create) whose start routines are C++
 * functions.  Per run:
 *   geometry::Square::area() const     40 (4 squares x 10 rounds)
 *   geometry::Circle::area() const     30 (3 circles x 10 rounds)
 *   geometry::operator+(Vec, Vec)      10
 *   int sum_all<int>(...)              10, double sum_all<double>(...) 10
 *   label[abi:cxx11](int)               5
 *   checked(int)                       10, throwing in 2 (0 and 5)
 *   the lambda of sort_descending()     as often as std::sort compares:
 *                                       the program counts and prints it
 *   worker::spin(int)                   2 (one per thread)
 * Every function is noinline so -O2 keeps each one a call.
 */
#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#define NOINLINE __attribute__((noinline))

static volatile double sink;
static int compares;

namespace geometry {

struct Vec {
	int x, y;
};

NOINLINE Vec operator+(Vec a, Vec b)
{
	return Vec{ a.x + b.x, a.y + b.y };
}

struct Shape {
	virtual ~Shape() {}
	virtual double area() const = 0;
};

struct Square : Shape {
	double side;
	explicit Square(double s) : side(s) {}
	double area() const override;
};

struct Circle : Shape {
	double r;
	explicit Circle(double radius) : r(radius) {}
	double area() const override;
};

NOINLINE double Square::area() const
{
	return side * side;
}

NOINLINE double Circle::area() const
{
	return 3.14159 * r * r;
}

} // namespace geometry

template <typename T>
NOINLINE T sum_all(const std::vector<T> &v)
{
	T s = 0;
	for (const T &x : v)
		s += x;
	return s;
}

NOINLINE std::string label(int i)
{
	return std::string("item-") + std::to_string(i);
}

NOINLINE int checked(int i)
{
	if (i % 5 == 0)
		throw std::invalid_argument("multiple of five");
	return i;
}

NOINLINE void sort_descending(std::vector<int> &v)
{
	std::sort(v.begin(), v.end(), [](int a, int b) NOINLINE {
		compares++;
		return a > b;
	});
}

namespace worker {

NOINLINE void spin(int n)
{
	for (int i = 0; i < n; i++)
		sink = sink + i;
}

} // namespace worker

static void *raw_thread(void *arg)
{
	worker::spin(*static_cast<int *>(arg));
	return nullptr;
}

/* ARGV[1], when given, is how long each thread spins (default 1000),
 * for runs that sample. */
int main(int argc, char **argv)
{
	std::vector<geometry::Shape *> shapes;
	for (int i = 0; i < 4; i++)
		shapes.push_back(new geometry::Square(i + 1));
	for (int i = 0; i < 3; i++)
		shapes.push_back(new geometry::Circle(i + 1));

	double total = 0;
	geometry::Vec at{ 0, 0 };
	int caught = 0;
	for (int round = 0; round < 10; round++) {
		for (const geometry::Shape *s : shapes)
			total += s->area();
		at = at + geometry::Vec{ round, 1 };
		total += sum_all(std::vector<int>{ round, 2, 3 });
		total += sum_all(std::vector<double>{ 0.5, double(round) });
		try {
			total += checked(round);
		} catch (const std::invalid_argument &) {
			caught++;
		}
	}
	std::string labels;
	for (int i = 0; i < 5; i++)
		labels += label(i);

	std::vector<int> v;
	for (int i = 0; i < 50; i++)
		v.push_back((i * 37) % 101);
	sort_descending(v);

	int n = argc > 1 ? std::atoi(argv[1]) : 1000;
	std::thread t(worker::spin, n);
	t.join();
	pthread_t pt;
	pthread_create(&pt, nullptr, raw_thread, &n);
	pthread_join(pt, nullptr);

	for (geometry::Shape *s : shapes)
		delete s;
	std::printf("%.2f %d,%d %d %zu %d\ncompares %d\n", total, at.x, at.y, caught, labels.size(),
		    v[0], compares);
	return 0;
}
