// cxx_work.cc — a C++ workload for bench/callgraph.sh: virtual calls,
// templates, a lambda sort, std::map and std::string, exceptions, and two
// std::threads, all at -O2 where the compiler turns many returns into
// tail jumps.
//
//   cxx_work [N]   N items (default 2000); prints a checksum.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace shapes {

struct Shape {
	virtual ~Shape() = default;
	virtual double area() const = 0;
	virtual double scaled(double k) const { return area() * k; }
};

struct Square : Shape {
	double side;
	explicit Square(double s) : side(s) {}
	double area() const override { return side * side; }
};

struct Circle : Shape {
	double r;
	explicit Circle(double r_) : r(r_) {}
	double area() const override { return 3.14159 * r * r; }
	double scaled(double k) const override { return Shape::scaled(k) + 1; }
};

} // namespace shapes

template <typename T> __attribute__((noinline)) T clamp_to(T v, T lo, T hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

template <typename Map> __attribute__((noinline)) long tally(const Map &m)
{
	long s = 0;
	for (const auto &kv : m)
		s += (long)kv.first.size() * kv.second;
	return s;
}

__attribute__((noinline)) double checked(double x)
{
	if (x < 0)
		throw std::domain_error("negative");
	return x * 0.5;
}

__attribute__((noinline)) double safe(double x)
{
	try {
		return checked(x);
	} catch (const std::domain_error &) {
		return 0;
	}
}

__attribute__((noinline)) static std::string key_of(int i)
{
	return "k" + std::to_string(i % 97);
}

static long work(int n, int seed)
{
	std::vector<std::unique_ptr<shapes::Shape>> v;
	for (int i = 0; i < n; i++) {
		if ((i + seed) % 3)
			v.emplace_back(new shapes::Square(i % 17));
		else
			v.emplace_back(new shapes::Circle(i % 13));
	}
	std::sort(v.begin(), v.end(), [](const auto &a, const auto &b) { return a->area() < b->area(); });
	std::map<std::string, int> m;
	double s = 0;
	for (int i = 0; i < n; i++) {
		s += v[(size_t)i]->scaled(1.5);
		m[key_of(i)] += clamp_to(i, 10, 1000);
		s += safe(i % 50 == 0 ? -1.0 : (double)i);
	}
	return (long)s + tally(m);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 2000;
	long a = 0, b = 0;
	std::thread t1([&] { a = work(n, 1); });
	std::thread t2([&] { b = work(n / 2, 2); });
	t1.join();
	t2.join();
	std::printf("%ld\n", a + b + work(n / 4, 3));
	return 0;
}
